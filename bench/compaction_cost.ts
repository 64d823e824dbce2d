/**
 * Benchmark 2: the cost of one compaction at a 128k window, without the model's time.
 *
 * @module
 */
import { Session } from "../src/session/session.ts";
import { compactionThreshold, resolveCompactionSettings } from "../src/context/settings.ts";
import { SessionStore } from "../src/session/store.ts";
import { estimateRequestTokens, type RequestOverhead } from "../src/context/tokens.ts";
import { buildWorkingMemory } from "../src/context/working_memory.ts";
import type { CompactionEvent } from "../src/core/events.ts";
import { CONTEXT_WINDOW, createBenchAgent, requestOverhead } from "./agent_setup.ts";
import type { BenchServer } from "./bench_server.ts";
import {
  compactedSessionRecords,
  copySession,
  syntheticHistory,
  TASK_MESSAGES,
  writeSessionFile,
} from "./history.ts";
import { type Spread, spread } from "./stats.ts";

/** How to run the benchmark. */
export interface CompactionCostOptions {
  /** Messages already compacted before the working memory (there is a previous summary). */
  compactedMessages: number;
  /** Measured runs, each on a fresh copy of the session. */
  runs: number;
  /** Runs before measuring (JIT). */
  warmupRuns: number;
}

/** What one compaction cost. */
export interface CompactionCostResult {
  historyMessages: number;
  messagesFolded: number;
  tokensBefore: number;
  tokensAfter: number;
  /** `prepare()` wall time minus the fake server's time for the summary request. */
  timeMs: Spread;
  /** The fake server's time for the summary request (token counting), subtracted above. */
  serverMs: Spread;
  /** The summary request's JSON body. */
  requestBytes: number;
  /** Bytes appended to the session file (the compaction record). */
  fileBytes: number;
}

/**
 * Builds a session whose working memory is just over the compaction threshold, then times
 * `Compactor.prepare()` (estimate, cut point, summary request, model call, new state,
 * session record, new working memory) on fresh copies of it.
 * Contract: throws when a run does not compact exactly once.
 */
export async function benchCompaction(
  server: BenchServer,
  options: CompactionCostOptions,
): Promise<CompactionCostResult> {
  const dir = await Deno.makeTempDir({ prefix: "powercode-bench-compaction-" });
  try {
    const workspace = `${dir}/workspace`;
    await Deno.mkdir(workspace);
    const store = new SessionStore(`${dir}/sessions`);
    const overhead = await requestOverhead(workspace);
    const recent = recentMessagesOverThreshold(options.compactedMessages, overhead);
    const history = syntheticHistory(options.compactedMessages + recent);
    const base = writeSessionFile(store, compactedSessionRecords(history, recent, overhead));
    const runs: Measured[] = [];
    for (let run = 0; run < options.warmupRuns + options.runs; run++) {
      const measured = await compactOnce(server, store, base.id, `r${run}`, workspace);
      if (run >= options.warmupRuns) runs.push(measured);
    }
    const first = runs[0];
    if (!first) throw new RangeError("Cannot measure compaction: runs must be at least 1");
    return {
      historyMessages: history.length,
      messagesFolded: first.event.messagesFolded,
      tokensBefore: first.event.tokensBefore,
      tokensAfter: first.event.tokensAfter,
      timeMs: spread(runs.map((run) => run.wallMs - run.serverMs)),
      serverMs: spread(runs.map((run) => run.serverMs)),
      requestBytes: first.requestBytes,
      fileBytes: first.fileBytes,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

type CompactionEnd = Extract<CompactionEvent, { type: "compaction_end" }>;

interface Measured {
  wallMs: number;
  serverMs: number;
  requestBytes: number;
  fileBytes: number;
  event: CompactionEnd;
}

async function compactOnce(
  server: BenchServer,
  store: SessionStore,
  baseId: string,
  label: string,
  workspace: string,
): Promise<Measured> {
  const id = `${baseId}-${label}`;
  await copySession(store, baseId, id);
  const ends: CompactionEnd[] = [];
  const onCompaction = (event: CompactionEvent) => {
    if (event.type === "compaction_end") ends.push(event);
  };
  const { agent } = await createBenchAgent(server.url, {
    store,
    sessionId: id,
    workspace,
    onCompaction,
  });
  const path = `${store.dir}/${id}.jsonl`;
  await server.take();
  const sizeBefore = (await Deno.stat(path)).size;
  const start = performance.now();
  await agent.compact("", new AbortController().signal, "automatic");
  const wallMs = performance.now() - start;
  const sizeAfter = (await Deno.stat(path)).size;
  agent.close();
  const served = await server.take();
  const event = ends[0];
  const request = served[0];
  if (!event || ends.length !== 1 || !request || served.length !== 1 || request.status !== 200) {
    throw new Error(
      `Cannot measure compaction: expected one compaction and one summary request, got ${ends.length} and ${served.length}`,
    );
  }
  await Deno.remove(path);
  return {
    wallMs,
    serverMs: request.serverMs,
    requestBytes: request.requestBytes,
    fileBytes: sizeAfter - sizeBefore,
    event,
  };
}

/** The fewest recent messages (whole tasks) whose working memory is over the threshold. */
function recentMessagesOverThreshold(compacted: number, overhead: RequestOverhead): number {
  const settings = resolveCompactionSettings({ contextWindow: CONTEXT_WINDOW });
  for (let recent = TASK_MESSAGES;; recent += TASK_MESSAGES) {
    const records = compactedSessionRecords(syntheticHistory(compacted + recent), recent, overhead);
    const memory = buildWorkingMemory(Session.fromRecords(records));
    const tokens = estimateRequestTokens({ ...overhead, messages: memory });
    if (tokens > compactionThreshold(settings)) return recent;
  }
}
