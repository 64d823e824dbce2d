/**
 * Benchmark 4: a long scripted session through the real program: N task lines piped to
 * `deno task start`, each task one file tool call and an answer.
 *
 * @module
 */
import { childEnv, createTempProject } from "../tests/support/project.ts";
import type { BenchServer } from "./bench_server.ts";
import { fileTaskLine } from "./handlers.ts";
import { runMeasured } from "./peak_rss.ts";
import { benchProvider } from "./startup.ts";
import { type Spread, spread } from "./stats.ts";

/** How to run the benchmark. */
export interface ThroughputOptions {
  /** Task lines piped per run. */
  tasks: number;
  runs: number;
}

/** What the long sessions cost. */
export interface ThroughputResult {
  tasks: number;
  /** Chat requests per run (two per task, plus any summary requests). */
  requests: number;
  /** Summary requests per run. */
  compactions: number;
  wallS: Spread;
  /** The fake server's share of the wall time (validation, token counting). */
  serverS: Spread;
  /** Wall time minus the server's time: powercode, Deno and the loopback. */
  ownS: Spread;
  peakRssMiB: Spread;
  sessionFileBytes: Spread;
}

/**
 * Pipes `tasks` lines to `deno task start` in a temp project against a server playing the
 * "file_tasks" script (even tasks write a note, odd tasks read it back).
 * Contract: throws when a run fails or does not answer every task.
 */
export async function benchThroughput(
  server: BenchServer,
  options: ThroughputOptions,
): Promise<ThroughputResult> {
  await using project = await createTempProject();
  await project.writeProvider(benchProvider(server.url));
  const stdin = Array.from({ length: options.tasks }, (_, task) => `${fileTaskLine(task)}\n`)
    .join("");
  await project.run(["-p", "warm up"]);
  const runs: Run[] = [];
  for (let run = 0; run < options.runs; run++) {
    await Deno.remove(`${project.dir}/.powercode`, { recursive: true }).catch(() => {});
    await Deno.remove(`${project.workspace}/notes`, { recursive: true }).catch(() => {});
    runs.push(await longSession(server, project.dir, stdin, options.tasks));
  }
  const first = runs[0];
  if (!first) throw new RangeError("Cannot measure throughput: runs must be at least 1");
  return {
    tasks: options.tasks,
    requests: first.requests,
    compactions: first.compactions,
    wallS: spread(runs.map((run) => run.wallMs / 1000)),
    serverS: spread(runs.map((run) => run.serverMs / 1000)),
    ownS: spread(runs.map((run) => (run.wallMs - run.serverMs) / 1000)),
    peakRssMiB: spread(runs.map((run) => run.peakRssKiB / 1024)),
    sessionFileBytes: spread(runs.map((run) => run.sessionFileBytes)),
  };
}

interface Run {
  wallMs: number;
  serverMs: number;
  peakRssKiB: number;
  sessionFileBytes: number;
  requests: number;
  compactions: number;
}

async function longSession(
  server: BenchServer,
  dir: string,
  stdin: string,
  tasks: number,
): Promise<Run> {
  await server.take();
  const run = await runMeasured(Deno.execPath(), ["task", "--quiet", "start"], {
    cwd: dir,
    env: childEnv(),
    stdin,
  });
  const served = (await server.take()).filter((request) => request.path === "/v1/chat/completions");
  const answers = run.stdout.match(/^Done with task \d+\.$/gm)?.length ?? 0;
  if (run.code !== 0 || answers !== tasks || run.peakRssKiB === undefined) {
    throw new Error(
      `Cannot measure throughput: exit code ${run.code}, ${answers} of ${tasks} answers, stderr: ${
        run.stderr.slice(0, 2000)
      }`,
    );
  }
  return {
    wallMs: run.wallMs,
    serverMs: served.reduce((sum, request) => sum + request.serverMs, 0),
    peakRssKiB: run.peakRssKiB,
    sessionFileBytes: await sessionBytes(`${dir}/.powercode/sessions`),
    requests: served.length,
    compactions: served.length - 2 * tasks,
  };
}

async function sessionBytes(dir: string): Promise<number> {
  let bytes = 0;
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile) bytes += (await Deno.stat(`${dir}/${entry.name}`)).size;
  }
  return bytes;
}
