/**
 * The machine a benchmark ran on: cores, CPU, memory, OS and Deno versions.
 *
 * @module
 */

/** What the results were measured on. */
export interface Machine {
  cores: number;
  cpu: string;
  memoryGiB: number;
  os: string;
  kernel: string;
  deno: string;
  v8: string;
  typescript: string;
}

/**
 * Describes this machine from /proc and /etc (the bench task has no `--allow-sys`).
 * Contract: never throws; what cannot be read (e.g. /proc on macOS) reads "unknown" or NaN.
 */
export function describeMachine(): Machine {
  return {
    cores: navigator.hardwareConcurrency,
    cpu: firstMatch("/proc/cpuinfo", /^model name\s*:\s*(.+)$/m),
    memoryGiB:
      Math.round(Number(firstMatch("/proc/meminfo", /^MemTotal:\s+(\d+) kB$/m)) / 1024 ** 2 * 10) /
      10,
    os: firstMatch("/etc/os-release", /^PRETTY_NAME="?([^"\n]+)"?$/m) + ` (${Deno.build.os}, ` +
      `${Deno.build.arch})`,
    kernel: firstMatch("/proc/sys/kernel/osrelease", /^(.+)$/m),
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    typescript: Deno.version.typescript,
  };
}

function firstMatch(path: string, pattern: RegExp): string {
  return pattern.exec(readSystemFile(path))?.[1]?.trim() ?? "unknown";
}

/** Deno reads /proc only with `--allow-all`; `cat` gets there with the task's `--allow-run`. */
function readSystemFile(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    try {
      const output = new Deno.Command("cat", { args: [path], stderr: "null" }).outputSync();
      return output.success ? new TextDecoder().decode(output.stdout) : "";
    } catch {
      return "";
    }
  }
}

/** The 1-minute load average, NaN where /proc/loadavg is missing. */
export function loadAverage(): number {
  return Number(firstMatch("/proc/loadavg", /^(\S+)/));
}
