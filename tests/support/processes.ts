/**
 * Polling and process lookups for end-to-end tests: wait for a condition with a deadline
 * instead of sleeping a fixed time, find processes by command line or parent.
 *
 * @module
 */

/**
 * Polls `check` every 50 ms until it returns a value other than undefined or false.
 * Contract: throws after `timeoutMs` (default 20 s) naming `what` and `detail()` if given.
 */
export async function waitUntil<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  options: { timeoutMs?: number; detail?: () => string | Promise<string> } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) {
      const detail = options.detail ? `\n${await options.detail()}` : "";
      throw new Error(`Timed out waiting for ${what}${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Command lines (`pid args`) of running processes whose command line contains `text`. */
export async function processesMatching(text: string): Promise<string[]> {
  const { stdout } = await new Deno.Command("pgrep", { args: ["-af", "--", text] }).output();
  return lines(stdout);
}

/** Pids of the processes whose parent is `pid`. */
export async function childrenOf(pid: number): Promise<number[]> {
  const { stdout } = await new Deno.Command("pgrep", { args: ["-P", String(pid)] }).output();
  return lines(stdout).map(Number);
}

/** Pids of every process below `pid`, children first. */
export async function descendantsOf(pid: number): Promise<number[]> {
  const found: number[] = [];
  for (const child of await childrenOf(pid)) found.push(child, ...await descendantsOf(child));
  return found;
}

/** Whether process `pid` exists (a zombie counts as gone). Uses ps: Deno guards /proc. */
export async function isAlive(pid: number): Promise<boolean> {
  const [state = ""] = await ps(["-o", "stat=", "-p", String(pid)]);
  return state !== "" && !state.trim().startsWith("Z");
}

/**
 * The powercode process started by `deno task` (the task runner's `deno run` child).
 * Contract: waits up to 20 s for it to appear.
 */
export async function powercodePid(taskPid: number): Promise<number> {
  const find = async () => {
    const pids = [taskPid, ...await descendantsOf(taskPid)];
    for (const line of await ps(["-o", "pid=,args=", "-p", pids.join(",")])) {
      const [pid = "", ...args] = line.trim().split(/\s+/);
      if (args.includes("main.ts")) return Number(pid);
    }
    return undefined;
  };
  return await waitUntil(find, `the powercode process under pid ${taskPid}`, {
    detail: async () => `descendants: ${await descendantsOf(taskPid)}`,
  });
}

async function ps(args: string[]): Promise<string[]> {
  const { stdout } = await new Deno.Command("ps", { args }).output();
  return lines(stdout);
}

function lines(bytes: Uint8Array): string[] {
  return new TextDecoder().decode(bytes).split("\n").filter((line) => line !== "");
}
