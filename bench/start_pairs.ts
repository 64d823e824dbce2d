/**
 * Benchmark 3b: `-p "hi"` launched the two ways a user starts it, each paired with its
 * yardstick run by run (A B A B …, so that a ratio holds when the machine's speed drifts):
 * the workspace layout (the `start` task's `deno run` command, in a temp copy of the
 * project) against an empty Deno program, and project mode (the installed command: the
 * launch step, then the program) against the workspace layout; and `--version` with the start
 * task's flags, which loads the program's static module graph and runs nothing, to tell the
 * graph's share from the run's; and the floor, a few lines of Deno that read provider.json and
 * stream one reply from the same server: the least any `-p` can do.
 *
 * @module
 */
import denoConfig from "../deno.json" with { type: "json" };
import { createInstalledHome } from "../tests/support/installed.ts";
import { childEnv, createTempProject } from "../tests/support/project.ts";
import type { BenchServer, ServedRequest } from "./bench_server.ts";
import { runMeasured } from "./peak_rss.ts";
import { benchProvider } from "./startup.ts";
import { type Spread, spread } from "./stats.ts";

/** How to run the benchmark. */
export interface StartPairsOptions {
  /**
   * Counted rounds (each: empty program, `--version`, workspace layout, project mode) after
   * one warm-up.
   */
  runs: number;
}

/** Launch → exit of each kind, the pairs' ratios and the peak memory of both modes. */
export interface StartPairsResult {
  emptyMs: Spread;
  /** The floor: read provider.json, one streamed request, print the reply. */
  floorMs: Spread;
  /** The floor / empty Deno program, pair by pair. */
  floorVsEmpty: Spread;
  /** `--version` with the start task's flags: the static module graph loaded, nothing run. */
  graphMs: Spread;
  layoutMs: Spread;
  projectMs: Spread;
  /** `--version` / empty Deno program, pair by pair. */
  graphVsEmpty: Spread;
  /** Workspace layout / empty Deno program, pair by pair. */
  layoutVsEmpty: Spread;
  /** Project mode / workspace layout, pair by pair. */
  projectVsLayout: Spread;
  layoutPeakMiB: Spread;
  projectPeakMiB: Spread;
  /** The fake server's time for the request of each mode (counted in the launch's time). */
  layoutServerMs: Spread;
  projectServerMs: Spread;
}

/** The goals of issue 36, item 18. */
export const START_GOALS = {
  layoutVsEmpty: 2,
  projectVsEmpty: 2,
  projectVsLayout: 1.05,
  peakMiB: 54,
};

/**
 * Runs `runs + 1` rounds (the first is not counted) of the three launches.
 * Contract: throws when a powercode launch fails.
 */
export async function benchStartPairs(
  server: BenchServer,
  options: StartPairsOptions,
): Promise<StartPairsResult> {
  await using project = await createTempProject();
  await project.writeProvider(benchProvider(server.url));
  await using home = await createInstalledHome();
  await home.writeProvider(benchProvider(server.url));
  const emptyDir = await Deno.makeTempDir({ prefix: "powercode-bench-empty-" });
  try {
    await Deno.writeTextFile(`${emptyDir}/empty.ts`, "export {};\n");
    await Deno.writeTextFile(`${emptyDir}/floor.ts`, FLOOR_PROGRAM);
    await Deno.writeTextFile(
      `${emptyDir}/provider.json`,
      JSON.stringify(benchProvider(server.url)),
    );
    // The start task's command, without `deno task` in front: `deno run FLAGS main.ts ...`.
    const [, ...layoutArgs] = denoConfig.tasks.start.split(" ");
    const launches = {
      empty: () => measure(Deno.execPath(), ["run", "empty.ts"], emptyDir, childEnv()),
      floor: () =>
        measure(Deno.execPath(), ["run", "-R", "--allow-net", "floor.ts"], emptyDir, childEnv()),
      graph: () => measure(Deno.execPath(), [...layoutArgs, "--version"], project.dir, childEnv()),
      layout: () => measure(Deno.execPath(), [...layoutArgs, "-p", "hi"], project.dir, childEnv()),
      project: () =>
        measure(`${home.home}/bin/powercode`, ["-p", "hi"], home.project, homeEnv(home.home)),
    };
    const rounds: Record<keyof typeof launches, Launch>[] = [];
    for (let round = 0; round <= options.runs; round++) {
      await server.take();
      const empty = await launches.empty();
      const floor = await launches.floor();
      const graph = await launches.graph();
      const layout = { ...await launches.layout(), serverMs: serverTime(await server.take()) };
      const projectRun = { ...await launches.project(), serverMs: serverTime(await server.take()) };
      if (round > 0) rounds.push({ empty, floor, graph, layout, project: projectRun });
    }
    const of = (pick: (round: (typeof rounds)[number]) => number) => spread(rounds.map(pick));
    return {
      emptyMs: of((round) => round.empty.wallMs),
      floorMs: of((round) => round.floor.wallMs),
      floorVsEmpty: of((round) => round.floor.wallMs / round.empty.wallMs),
      graphMs: of((round) => round.graph.wallMs),
      graphVsEmpty: of((round) => round.graph.wallMs / round.empty.wallMs),
      layoutMs: of((round) => round.layout.wallMs),
      projectMs: of((round) => round.project.wallMs),
      layoutVsEmpty: of((round) => round.layout.wallMs / round.empty.wallMs),
      projectVsLayout: of((round) => round.project.wallMs / round.layout.wallMs),
      layoutPeakMiB: of((round) => round.layout.peakMiB),
      projectPeakMiB: of((round) => round.project.peakMiB),
      layoutServerMs: of((round) => round.layout.serverMs ?? 0),
      projectServerMs: of((round) => round.project.serverMs ?? 0),
    };
  } finally {
    await Deno.remove(emptyDir, { recursive: true });
  }
}

/**
 * The least a `-p "hi"` can do: read the provider file, stream one reply, print its text.
 * Written for this benchmark (no source of its own beyond the chat-completions wire format).
 */
const FLOOR_PROGRAM = `const provider = JSON.parse(await Deno.readTextFile("provider.json"));
const response = await fetch(provider.baseURL + "/chat/completions", {
  method: "POST",
  headers: { "content-type": "application/json", authorization: "Bearer " + provider.apiKey },
  body: JSON.stringify({
    model: provider.model,
    stream: true,
    messages: [{ role: "user", content: "hi" }],
  }),
});
let text = "";
for (const line of (await response.text()).split("\\n")) {
  if (!line.startsWith("data: {")) continue;
  text += JSON.parse(line.slice(6)).choices?.[0]?.delta?.content ?? "";
}
console.log(text);
`;

interface Launch {
  wallMs: number;
  peakMiB: number;
  serverMs?: number;
}

function serverTime(requests: readonly ServedRequest[]): number {
  return requests.reduce((sum, request) => sum + request.serverMs, 0);
}

async function measure(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<Launch> {
  const run = await runMeasured(command, args, { cwd, env });
  if (run.code !== 0) {
    throw new Error(
      `Cannot measure "${[command, ...args].join(" ")}": exit ${run.code}: ${run.stderr}`,
    );
  }
  return { wallMs: run.wallMs, peakMiB: (run.peakRssKiB ?? Number.NaN) / 1024 };
}

/** What the installed command runs with: the temp home, and deno's cache where it is now. */
function homeEnv(home: string): Record<string, string> {
  const realHome = Deno.env.get("HOME");
  const denoDir = Deno.env.get("DENO_DIR") ??
    (realHome === undefined ? undefined : `${realHome}/.cache/deno`);
  return {
    ...childEnv(),
    HOME: home,
    ...(denoDir === undefined ? {} : { DENO_DIR: denoDir }),
  };
}
