/**
 * `deno task bench`: measures powercode's own overhead against a zero-latency fake OpenAI
 * server, prints a markdown report and writes it to bench/RESULTS.md.
 *
 * @module
 */
import { startBenchServer } from "./bench_server.ts";
import { benchCompaction, type CompactionCostOptions } from "./compaction_cost.ts";
import { benchLongSessionRuns, FIDELITY_RUN, LONG_SESSION } from "./long_session.ts";
import { loadBaseline } from "./long_session_report.ts";
import { describeMachine, loadAverage } from "./machine.ts";
import { defaultRssMethod, describeRssMethod } from "./peak_rss.ts";
import { benchRenderCost, type RenderCostOptions } from "./render_cost.ts";
import { benchSearchCost, type SearchCostOptions } from "./search_cost.ts";
import { benchSnapshotCost, type SnapshotCostOptions } from "./snapshot_cost.ts";
import { type BenchResults, renderReport } from "./report.ts";
import { benchStartPairs, type StartPairsOptions } from "./start_pairs.ts";
import { benchStartup, type StartupOptions } from "./startup.ts";
import { benchStepOverhead, type StepOverheadOptions } from "./step_overhead.ts";
import { benchThroughput, type ThroughputOptions } from "./throughput.ts";

const STEPS: StepOverheadOptions = {
  historySizes: [100, 1_000, 10_000, 50_000],
  recentMessages: 84,
  runs: 7,
  steps: 60,
  warmupSteps: 20,
};
const COMPACTION: CompactionCostOptions = { compactedMessages: 1_000, runs: 7, warmupRuns: 3 };
const STARTUP: StartupOptions = { runs: 5 };
const START_PAIRS: StartPairsOptions = { runs: 7 };
const THROUGHPUT: ThroughputOptions = { tasks: 500, runs: 3 };
const RENDER_COST: RenderCostOptions = {
  sizes: [64 * 1024, 1024 * 1024],
  chunkBytes: 4,
  lineBytes: 24 * 1024,
  runs: 5,
};
const SNAPSHOTS: SnapshotCostOptions = {
  files: 10_000,
  filesPerDir: 100,
  fileBytes: 10_000,
  tasks: 10,
  changedFiles: 10,
};
const SEARCH: SearchCostOptions = { files: 10_000, filesPerDir: 100, runs: 5 };
const RESULTS_FILE = new URL("./RESULTS.md", import.meta.url);

async function main(): Promise<void> {
  const started = performance.now();
  const date = new Date();
  const machine = describeMachine();
  const startLoad = loadAverage();
  const answered = await withAnsweringServer();
  progress(`4/8 throughput: ${THROUGHPUT.tasks} tasks × ${THROUGHPUT.runs} runs`);
  await using fileTasks = await startBenchServer("file_tasks");
  const throughput = { options: THROUGHPUT, result: await benchThroughput(fileTasks, THROUGHPUT) };
  progress(
    `5/8 long session: ${LONG_SESSION.tasks} fact tasks at ${LONG_SESSION.windows.join(", ")}, ` +
      `and issue 34's fidelity run at ${FIDELITY_RUN.windows.join(", ")}`,
  );
  const longSession = {
    options: LONG_SESSION,
    runs: await benchLongSessionRuns(),
    baseline: await loadBaseline(),
  };
  progress("6/8 rendering a 1 MB answer of unmatched `*`");
  const renderCost = { options: RENDER_COST, rows: benchRenderCost(RENDER_COST) };
  progress(`7/8 undo snapshots of ${SNAPSHOTS.files} files`);
  const snapshots = { options: SNAPSHOTS, result: await benchSnapshotCost(SNAPSHOTS) };
  progress(`8/8 search tools on ${SEARCH.files} files`);
  const search = { options: SEARCH, result: await benchSearchCost(SEARCH) };
  const report = renderReport({
    date,
    totalSeconds: (performance.now() - started) / 1000,
    machine,
    loadAverage: startLoad,
    rssMethod: describeRssMethod(defaultRssMethod()),
    ...answered,
    throughput,
    longSession,
    renderCost,
    snapshots,
    search,
  });
  await Deno.writeTextFile(RESULTS_FILE, report);
  // `deno task test` runs `deno fmt --check`, which covers markdown too.
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", RESULTS_FILE.pathname] })
    .output();
  console.log(await Deno.readTextFile(RESULTS_FILE));
  progress(`Wrote ${decodeURIComponent(RESULTS_FILE.pathname)}`);
}

/** Benchmarks 1–3, against a server that answers every task with a short text. */
async function withAnsweringServer(): Promise<
  Pick<BenchResults, "steps" | "compaction" | "startup" | "startPairs">
> {
  await using server = await startBenchServer("answer");
  progress("1/8 per-step overhead vs history length");
  const steps = { options: STEPS, rows: await benchStepOverhead(server, STEPS) };
  progress("2/8 compaction cost");
  const compaction = { options: COMPACTION, result: await benchCompaction(server, COMPACTION) };
  progress("3/8 startup");
  const startup = { options: STARTUP, result: await benchStartup(server, STARTUP) };
  progress(`3/8 startup: ${START_PAIRS.runs} paired rounds of both modes and an empty program`);
  const startPairs = { options: START_PAIRS, result: await benchStartPairs(server, START_PAIRS) };
  return { steps, compaction, startup, startPairs };
}

function progress(line: string): void {
  console.error(`bench: ${line}`);
}

if (import.meta.main) await main();
