/**
 * Runs a command to completion and reports its peak resident set size: with GNU time
 * (`/usr/bin/time -v`) when present, else with `rss_sampler.ts` sampling VmHWM in /proc.
 *
 * @module
 */
import { SAMPLE_MS } from "./rss_sampler.ts";
import { epochMs } from "./stats.ts";

/** What a measured run printed, returned and peaked at. */
export interface MeasuredRun {
  code: number;
  stdout: string;
  stderr: string;
  /** When the command was launched, in epoch milliseconds ({@link epochMs}). */
  launchedAt: number;
  /** From launch until the process tree exited. */
  wallMs: number;
  /** Peak RSS of the largest process in the tree, in KiB; undefined when unmeasurable. */
  peakRssKiB: number | undefined;
}

/** How a command is run. */
export interface MeasuredCommand {
  cwd: string;
  env: Record<string, string>;
  stdin?: string;
  /** How to measure peak RSS; by default GNU time when present, else /proc sampling. */
  rss?: RssMethod;
}

/** The two ways peak RSS can be measured. */
export type RssMethod = "gnu_time" | "proc_sampling";

const GNU_TIME = "/usr/bin/time";
const SAMPLER = new URL("./rss_sampler.ts", import.meta.url);

/** How peak RSS is measured on this machine by default. */
export function defaultRssMethod(): RssMethod {
  try {
    return Deno.statSync(GNU_TIME).isFile ? "gnu_time" : "proc_sampling";
  } catch {
    return "proc_sampling";
  }
}

/** Describes `method` for the report. */
export function describeRssMethod(method: RssMethod): string {
  return method === "gnu_time"
    ? "`/usr/bin/time -v` (GNU time), maximum resident set size of the largest process in " +
      "the tree (the `deno run` child of `deno task`)"
    : `no GNU time here, so VmHWM of every process in the tree is read from /proc every ` +
      `${SAMPLE_MS} ms and the largest is kept`;
}

/**
 * Runs `command args` and measures it.
 * Contract: never throws for a failing command (see `code`); throws when it cannot start.
 */
export async function runMeasured(
  command: string,
  args: readonly string[],
  options: MeasuredCommand,
): Promise<MeasuredRun> {
  const gnuTime = (options.rss ?? defaultRssMethod()) === "gnu_time";
  const report = gnuTime ? await Deno.makeTempFile({ prefix: "powercode-bench-time-" }) : "";
  try {
    const launchedAt = epochMs();
    const child = new Deno.Command(gnuTime ? GNU_TIME : command, {
      args: gnuTime ? ["-v", "-o", report, command, ...args] : [...args],
      cwd: options.cwd,
      clearEnv: true,
      env: options.env,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const sampler = gnuTime ? undefined : startSampler(child.pid);
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin ?? ""));
    await writer.close();
    const output = await child.output();
    const wallMs = epochMs() - launchedAt;
    const peakRssKiB = gnuTime
      ? parseMaxRss(await Deno.readTextFile(report))
      : await sampledPeak(sampler);
    const decoder = new TextDecoder();
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
      launchedAt,
      wallMs,
      peakRssKiB,
    };
  } finally {
    if (report) await Deno.remove(report);
  }
}

function parseMaxRss(report: string): number | undefined {
  const match = /Maximum resident set size \(kbytes\): (\d+)/.exec(report);
  return match ? Number(match[1]) : undefined;
}

/** The sampler needs `--allow-all` to read /proc; the bench task's `--allow-run` permits it. */
function startSampler(pid: number): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", SAMPLER.pathname, String(pid)],
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
}

async function sampledPeak(sampler: Deno.ChildProcess | undefined): Promise<number | undefined> {
  if (!sampler) return undefined;
  const text = new TextDecoder().decode((await sampler.output()).stdout).trim();
  return text === "" ? undefined : Number(text);
}
