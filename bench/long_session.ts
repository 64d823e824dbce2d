/**
 * Benchmark 5: long-session fidelity and prompt-cache reuse. One session of 30 tasks, each
 * reading a workspace file that holds a unique fact, then a recall task, through the real
 * agent, compactor and chat client against the strict fake server (real BPE token counts,
 * over-window requests rejected), at several context windows.
 *
 * Run alone: `deno run --lock=tests/deno.lock -A bench/long_session.ts` prints its section;
 * with `--save-baseline "LABEL"` it also records the run as the baseline later runs are
 * compared against (bench/long_session_before.json).
 *
 * @module
 */
import { parseArgs } from "@std/cli/parse-args";
import { compactionThreshold, resolveCompactionSettings } from "../src/context/settings.ts";
import type { CompactionEvent } from "../src/core/events.ts";
import {
  type Handler,
  type RecordedRequest,
  startFakeServer,
} from "../tests/support/fake_server.ts";
import { factPath, factProseText, writeFactFiles } from "../tests/support/facts.ts";
import {
  answerSummaries,
  factsIn,
  isSummaryRequest,
  lastMessage,
  lastUserText,
  text,
  toolCall,
} from "../tests/support/scripts.ts";
import { assembleBench } from "./agent_setup.ts";
import { BENCH_MODEL } from "./history.ts";
import { loadBaseline, longSessionSection, saveBaseline } from "./long_session_report.ts";
import { type CacheFigures, cacheFigures } from "./prefix_cache.ts";

/** How to run the benchmark. */
export interface LongSessionOptions {
  /** Context windows to run the session at, in tokens. */
  windows: readonly number[];
  /** Fact-reading tasks before the recall task. */
  tasks: number;
  /** The output limit sent with every request (and so the reserve's lower bound). */
  maxOutputTokens: number;
  /** The size in bytes of fact file `index` (1-based). */
  fileBytes: (index: number) => number;
  /**
   * provider.json's `summaryInConversation`: unset or true asks for summaries in the cached
   * conversation (the default); false asks with the tool-less serialized request.
   */
  summaryInConversation?: boolean;
}

/** What one session at one window did. */
export interface LongSessionRow {
  contextWindow: number;
  threshold: number;
  /** Facts present anywhere in the recall task's request. */
  factsRecalled: number;
  facts: number;
  /** Tasks that did not end with an answer. */
  failedTasks: number;
  /** Requests the server refused (over the window, or invalid). */
  rejected: number;
  summaryCalls: number;
  taskRequests: number;
  /** The fewest task requests between two summary requests; undefined with fewer than two. */
  minTaskRequestsBetweenSummaries: number | undefined;
  /** Task requests in which some tool output was shortened. */
  requestsWithCutOutputs: number;
  warnings: number;
  peakPromptTokens: number;
  /** Prompt tokens of all accepted requests, summary requests included. */
  totalPromptTokens: number;
  cache: CacheFigures;
}

/** The task line asking to read fact file `index`. */
export function readTask(index: number): string {
  return `Read ${factPath(index)} and remember the fact in it.`;
}

/** The last task line. */
export const RECALL_TASK = "List every FACT code you have read so far.";

const CUT_MARKER = /\[\.\.\. \d+ characters omitted \.\.\.\]/;

/**
 * Runs the session once per window, each in a fresh workspace against a fresh server.
 * Contract: throws when the server cannot start; a failed task is counted, not thrown.
 */
export async function benchLongSession(options: LongSessionOptions): Promise<LongSessionRow[]> {
  const rows: LongSessionRow[] = [];
  for (const contextWindow of options.windows) rows.push(await runSession(contextWindow, options));
  return rows;
}

async function runSession(
  contextWindow: number,
  options: LongSessionOptions,
): Promise<LongSessionRow> {
  const dir = await Deno.makeTempDir({ prefix: "powercode-bench-long-" });
  try {
    const workspace = `${dir}/workspace`;
    const facts = await writeFactFiles(workspace, options.tasks, {
      bytes: options.fileBytes,
      text: factProseText,
    });
    await using server = await startFakeServer({
      model: BENCH_MODEL,
      contextWindow,
      handler: answerSummaries(factReader),
    });
    const events: CompactionEvent[] = [];
    const { agent } = await assembleBench(server.url, {
      workspace,
      contextWindow,
      maxOutputTokens: options.maxOutputTokens,
      onCompaction: (event) => events.push(event),
      ...(options.summaryInConversation === undefined
        ? {}
        : { summaryInConversation: options.summaryInConversation }),
    });
    const tasks = [...facts.map((_, index) => readTask(index + 1)), RECALL_TASK];
    let failedTasks = 0;
    for (const task of tasks) {
      const result = await agent.run(task, new AbortController().signal);
      if (result.status !== "done") failedTasks++;
    }
    const accepted = server.requests.filter((request) => request.status === 200);
    const recall = accepted.findLast((request) => !isSummaryRequest(request));
    const recalled = recall ? factsIn(recall) : [];
    const settings = resolveCompactionSettings({
      contextWindow,
      maxOutputTokens: options.maxOutputTokens,
    });
    return {
      contextWindow,
      threshold: compactionThreshold(settings),
      factsRecalled: facts.filter((fact) => recalled.includes(fact)).length,
      facts: facts.length,
      failedTasks,
      rejected: server.requests.length - accepted.length,
      summaryCalls: accepted.filter((request) => isSummaryRequest(request)).length,
      taskRequests: accepted.filter((request) => !isSummaryRequest(request)).length,
      minTaskRequestsBetweenSummaries: minGap(accepted),
      requestsWithCutOutputs: accepted.filter(hasCutOutput).length,
      warnings: events.filter((event) => event.type === "warning").length,
      peakPromptTokens: Math.max(0, ...accepted.map((request) => request.promptTokens)),
      totalPromptTokens: accepted.reduce((sum, request) => sum + request.promptTokens, 0),
      cache: cacheFigures(server.requests),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * The model: reads the file a task names, then answers without repeating its fact, so a
 * fact reaches later requests only through the tool result or a summary; the recall task
 * is answered with every fact in its request.
 */
const factReader: Handler = (request) => {
  const task = lastUserText(request);
  if (task.endsWith(RECALL_TASK)) return text(`Facts: ${factsIn(request).join(", ")}`);
  const path = [...task.matchAll(/Read (\S+) and remember/g)].at(-1)?.[1];
  if (path === undefined) return text("Nothing to read.");
  if (lastMessage(request)?.role === "tool") return text(`I read ${path}.`);
  return toolCall("read_file", { path });
};

function minGap(requests: readonly RecordedRequest[]): number | undefined {
  let gap: number | undefined;
  let since: number | undefined;
  for (const request of requests) {
    if (!isSummaryRequest(request)) {
      if (since !== undefined) since++;
      continue;
    }
    if (since !== undefined) gap = Math.min(gap ?? since, since);
    since = 0;
  }
  return gap;
}

function hasCutOutput(request: RecordedRequest): boolean {
  if (isSummaryRequest(request)) return false;
  return (request.body?.messages ?? []).some((message) =>
    message.role === "tool" && CUT_MARKER.test(message.content)
  );
}

/** The benchmark's standard run, as `deno task bench` runs it. */
export const LONG_SESSION: LongSessionOptions = {
  windows: [16_000, 32_000, 64_000],
  tasks: 30,
  maxOutputTokens: 4_000,
  fileBytes: (index) => 5_000 + (index * 337) % 1_500,
};

/**
 * Issue 34's fidelity run, the one its goals are set on: 2.5 KB files at 16k and 32k.
 */
export const FIDELITY_RUN: LongSessionOptions = {
  windows: [16_000, 32_000],
  tasks: 30,
  maxOutputTokens: 4_000,
  fileBytes: () => 2_500,
};

/** A run with the tool-less serialized summary request (`"summaryInConversation": false`). */
function toolLess(options: LongSessionOptions): LongSessionOptions {
  return { ...options, summaryInConversation: false };
}

/**
 * The runs of `deno task bench`: the standard run by default and with the tool-less summary
 * request, then issue 34's fidelity run the same two ways, checked against its goals.
 */
export async function benchLongSessionRuns(): Promise<LongSessionRun[]> {
  return [
    {
      label: "This run (default: summary asked for in the cached conversation)",
      rows: await benchLongSession(LONG_SESSION),
      against: "baseline",
    },
    {
      label: 'This run with "summaryInConversation": false (serialized request, no tools)',
      rows: await benchLongSession(toolLess(LONG_SESSION)),
      against: "baseline",
    },
    {
      label: "Fidelity run of issue 34 (2.5 KB files), default mode",
      rows: await benchLongSession(FIDELITY_RUN),
      against: "goals",
    },
    {
      label: 'Fidelity run of issue 34 (2.5 KB files) with "summaryInConversation": false',
      rows: await benchLongSession(toolLess(FIDELITY_RUN)),
      against: "goals",
    },
  ];
}

/** One labelled run of the benchmark. */
export interface LongSessionRun {
  label: string;
  rows: LongSessionRow[];
  /**
   * What the rows are compared with: the recorded baseline (same files), or issue 34's goals
   * (`FIDELITY_GOALS`).
   */
  against: "baseline" | "goals";
}

if (import.meta.main) {
  const runs = await benchLongSessionRuns();
  const label = parseArgs(Deno.args, { string: ["save-baseline"] })["save-baseline"];
  if (label !== undefined) await saveBaseline({ label, rows: runs[0]!.rows });
  console.log(longSessionSection(LONG_SESSION, runs, await loadBaseline()).join("\n"));
}
