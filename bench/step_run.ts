/**
 * Child process of benchmark 1: resumes one session file and runs one-step tasks on command,
 * so the bench can interleave steps of several history lengths and every length sees the same
 * machine conditions.
 *
 * Protocol (one JSON object per line): on start it prints a {@link StepRunReady}; each line
 * `step` on stdin runs one task and prints a {@link StepRunStep}; `gc` collects garbage and
 * prints `{}`. At end of input it exits, with code 1 if a compaction happened.
 *
 * Usage: `deno run --v8-flags=--expose-gc ... bench/step_run.ts '<StepRunInput JSON>'`
 *
 * @module
 */
import process from "node:process";
import { SessionStore } from "../src/session/store.ts";
import { estimateRequestTokens } from "../src/context/tokens.ts";
import { createBenchAgent } from "./agent_setup.ts";
import { readLines } from "./lines.ts";

/** What the child works on. */
export interface StepRunInput {
  url: string;
  sessionsDir: string;
  /** The session file to resume (a copy the child may append to). */
  sessionId: string;
  workspace: string;
}

/** Printed once the session is resumed. */
export interface StepRunReady {
  /** Loading the session file and rebuilding the session. */
  resumeMs: number;
  memoryMessages: number;
  memoryTokens: number;
}

/** Printed after each step. */
export interface StepRunStep {
  /** Wall time of `agent.run()` for a one-step task, server time included. */
  wallMs: number;
  /** CPU time (user + system, all threads) of this process during the step. */
  cpuMs: number;
}

async function main(input: StepRunInput): Promise<number> {
  const store = new SessionStore(input.sessionsDir);
  const loadStart = performance.now();
  const { agent, compactor, overhead } = await createBenchAgent(input.url, {
    store,
    sessionId: input.sessionId,
    workspace: input.workspace,
  });
  const resumeMs = performance.now() - loadStart;
  const session = agent.view;
  const memory = compactor.workingMemory(session);
  const compactedUntil = session.compaction?.compactedUntil;
  const memoryTokens = estimateRequestTokens({ ...overhead, messages: memory });
  reply({ resumeMs, memoryMessages: memory.length, memoryTokens } satisfies StepRunReady);
  const signal = new AbortController().signal;
  let step = 0;
  for await (const command of readLines(Deno.stdin.readable)) {
    if (command === "gc") {
      collectGarbage();
      reply({});
      continue;
    }
    const cpu = process.cpuUsage();
    const start = performance.now();
    const result = await agent.run(`Step ${step++}: reply with one word.`, signal);
    const wallMs = performance.now() - start;
    const { user, system } = process.cpuUsage(cpu);
    if (result.status !== "done") throw new Error(`Task ended: ${JSON.stringify(result)}`);
    reply({ wallMs, cpuMs: (user + system) / 1000 } satisfies StepRunStep);
  }
  agent.close();
  if (session.compaction?.compactedUntil === compactedUntil) return 0;
  console.error("A compaction happened during the run; the working memory changed");
  return 1;
}

function reply(value: object): void {
  console.log(JSON.stringify(value));
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("Cannot collect garbage: run with --v8-flags=--expose-gc");
  gc();
}

if (import.meta.main) Deno.exit(await main(JSON.parse(Deno.args[0] ?? "{}")));
