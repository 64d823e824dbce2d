/**
 * Benchmark 1: the time powercode spends per model call outside the server, for session
 * histories of growing length with the same working memory.
 *
 * @module
 */
import { SessionStore } from "../src/session/store.ts";
import { requestOverhead } from "./agent_setup.ts";
import type { BenchServer } from "./bench_server.ts";
import {
  compactedSessionRecords,
  copySession,
  syntheticHistory,
  writeSessionFile,
} from "./history.ts";
import { mean, type Spread, spread } from "./stats.ts";
import { StepChild } from "./step_child.ts";

/** How to run the benchmark. */
export interface StepOverheadOptions {
  /** History lengths to compare (even numbers); the first is the baseline. */
  historySizes: readonly number[];
  /** Messages after the compacted prefix (a multiple of 6): the same working memory in every case. */
  recentMessages: number;
  /** Repetitions, each with fresh processes. */
  runs: number;
  /** Model calls timed per history length and run. */
  steps: number;
  /** Model calls per history length and run before timing (JIT, caches). */
  warmupSteps: number;
}

/** The results for one history length. */
export interface StepOverheadRow {
  historyMessages: number;
  fileBytes: number;
  memoryMessages: number;
  memoryTokens: number;
  /** Loading the session file and rebuilding the session (`--resume`) in a fresh process. */
  resumeMs: Spread;
  /** Median per model call of each run: client wall time minus server time. */
  overheadMs: Spread;
  /** Mean per model call of each run, so garbage collection pauses count too. */
  meanOverheadMs: Spread;
  /** Mean CPU time of the powercode process per model call (all threads). */
  cpuMs: Spread;
  /** Mean per model call of each run: the fake server's time, subtracted above. */
  serverMs: Spread;
}

interface RunResult {
  resumeMs: number;
  overheadMs: number;
  meanOverheadMs: number;
  cpuMs: number;
  serverMs: number;
}

interface Step {
  overheadMs: number;
  cpuMs: number;
  serverMs: number;
}

/**
 * Per run, starts one process per history length, each resuming a copy of a session with
 * that many messages (compacted so the working memory is the summary plus the last
 * `recentMessages` messages), then runs one-step tasks (a user line, one model call, a text
 * answer) round-robin across the processes, so all lengths share the same machine conditions.
 * Contract: throws when a process fails, a task fails or a compaction happens.
 */
export async function benchStepOverhead(
  server: BenchServer,
  options: StepOverheadOptions,
): Promise<StepOverheadRow[]> {
  const dir = await Deno.makeTempDir({ prefix: "powercode-bench-steps-" });
  try {
    const workspace = `${dir}/workspace`;
    await Deno.mkdir(workspace);
    const store = new SessionStore(`${dir}/sessions`);
    const overhead = await requestOverhead(workspace);
    const bases = options.historySizes.map((size) =>
      writeSessionFile(
        store,
        compactedSessionRecords(syntheticHistory(size), options.recentMessages, overhead),
      )
    );
    const runs = bases.map((): RunResult[] => []);
    const ready: StepChild["ready"][] = [];
    for (let run = 0; run < options.runs; run++) {
      const children: StepChild[] = [];
      for (const base of bases) {
        const sessionId = `${base.id}-r${run}`;
        await copySession(store, base.id, sessionId);
        children.push(
          await StepChild.start({ url: server.url, sessionsDir: store.dir, sessionId, workspace }),
        );
      }
      const steps = await interleave(server, children, options, run);
      for (const [index, child] of children.entries()) {
        await child.close();
        ready[index] = child.ready;
        runs[index]?.push(summarizeRun(child.ready.resumeMs, steps[index] ?? []));
      }
    }
    return options.historySizes.map((historyMessages, index) => {
      const results = runs[index] ?? [];
      const pick = (key: keyof RunResult) => spread(results.map((result) => result[key]));
      return {
        historyMessages,
        fileBytes: bases[index]?.bytes ?? 0,
        memoryMessages: ready[index]?.memoryMessages ?? 0,
        memoryTokens: ready[index]?.memoryTokens ?? 0,
        resumeMs: pick("resumeMs"),
        overheadMs: pick("overheadMs"),
        meanOverheadMs: pick("meanOverheadMs"),
        cpuMs: pick("cpuMs"),
        serverMs: pick("serverMs"),
      };
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Runs warm-up rounds, collects garbage, then timed rounds; returns each child's timed steps. */
async function interleave(
  server: BenchServer,
  children: readonly StepChild[],
  options: StepOverheadOptions,
  run: number,
): Promise<Step[][]> {
  const steps = children.map((): Step[] => []);
  await server.take();
  for (let round = 0; round < options.warmupSteps + options.steps; round++) {
    // The loaded files' garbage would otherwise be collected during the timed steps.
    if (round === options.warmupSteps) {
      for (const child of children) await child.collectGarbage();
    }
    for (let offset = 0; offset < children.length; offset++) {
      const index = (round + run + offset) % children.length;
      const child = children[index];
      if (!child) continue;
      const step = await child.step();
      const served = await server.take();
      const request = served[0];
      if (served.length !== 1 || request?.status !== 200) {
        throw new Error(
          `Cannot measure step overhead: expected one answered request, got ${
            JSON.stringify(served.map((r) => r.status))
          }`,
        );
      }
      if (round < options.warmupSteps) continue;
      steps[index]?.push({
        overheadMs: step.wallMs - request.serverMs,
        cpuMs: step.cpuMs,
        serverMs: request.serverMs,
      });
    }
  }
  return steps;
}

function summarizeRun(resumeMs: number, steps: readonly Step[]): RunResult {
  const overheads = steps.map((step) => step.overheadMs);
  return {
    resumeMs,
    overheadMs: spread(overheads).median,
    meanOverheadMs: mean(overheads),
    cpuMs: mean(steps.map((step) => step.cpuMs)),
    serverMs: mean(steps.map((step) => step.serverMs)),
  };
}
