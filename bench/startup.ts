/**
 * Benchmark 3: from launching `deno task start -p "hi"` to its first request reaching the
 * server, and the process's peak RSS, in a temp copy of the project; and the time to the
 * REPL's first prompt on a pseudo-terminal.
 *
 * @module
 */
import { childEnv, createTempProject } from "../tests/support/project.ts";
import type { BenchServer } from "./bench_server.ts";
import { BENCH_MODEL } from "./history.ts";
import { timeToPrompt } from "./prompt_time.ts";
import { runMeasured } from "./peak_rss.ts";
import { type Spread, spread } from "./stats.ts";

/** How to run the benchmark. */
export interface StartupOptions {
  /** Measured launches after the first (cold) one. */
  runs: number;
}

/** Startup figures of one kind of launch. */
export interface StartupFigures {
  /** From process launch to the first chat request reaching the server. */
  toFirstRequestMs: Spread;
  /** From process launch to exit (the answer is printed). */
  toExitMs: Spread;
  peakRssMiB: Spread;
}

/** Cold (first launch in a new copy: nothing cached for its paths) and warm figures. */
export interface StartupResult {
  cold: StartupFigures;
  warm: StartupFigures;
  /** Launch → first `> ` prompt of the REPL on a pseudo-terminal, warm runs. */
  toPromptMs: Spread;
}

/** The arguments after `deno` for the measured command. */
const START_ARGS = ["task", "--quiet", "start", "-p", "hi"];

/**
 * Launches `deno task start -p "hi"` once cold and `runs` times warm.
 * Contract: throws when a launch fails or its request never arrives.
 */
export async function benchStartup(
  server: BenchServer,
  options: StartupOptions,
): Promise<StartupResult> {
  await using project = await createTempProject();
  await project.writeProvider(benchProvider(server.url));
  const runs: Launch[] = [];
  for (let run = 0; run <= options.runs; run++) runs.push(await launch(server, project.dir));
  const [cold, ...warm] = runs;
  const prompts: number[] = [];
  for (let run = 0; run < options.runs; run++) prompts.push(await timeToPrompt(project.dir));
  return { cold: figures(cold ? [cold] : []), warm: figures(warm), toPromptMs: spread(prompts) };
}

/** A provider.json for the bench server with a 128k window. */
export function benchProvider(url: string): Record<string, unknown> {
  return { baseURL: url, apiKey: "sk-bench", model: BENCH_MODEL, contextWindow: 128_000 };
}

interface Launch {
  toFirstRequestMs: number;
  toExitMs: number;
  peakRssKiB: number;
}

async function launch(server: BenchServer, dir: string): Promise<Launch> {
  await server.take();
  const run = await runMeasured(Deno.execPath(), START_ARGS, { cwd: dir, env: childEnv() });
  const first = (await server.take()).find((request) => request.path === "/v1/chat/completions");
  if (run.code !== 0 || !first || run.peakRssKiB === undefined) {
    throw new Error(`Cannot measure startup: exit code ${run.code}, stderr: ${run.stderr}`);
  }
  return {
    toFirstRequestMs: first.arrivedAt - run.launchedAt,
    toExitMs: run.wallMs,
    peakRssKiB: run.peakRssKiB,
  };
}

function figures(launches: readonly Launch[]): StartupFigures {
  return {
    toFirstRequestMs: spread(launches.map((launch) => launch.toFirstRequestMs)),
    toExitMs: spread(launches.map((launch) => launch.toExitMs)),
    peakRssMiB: spread(launches.map((launch) => launch.peakRssKiB / 1024)),
  };
}
