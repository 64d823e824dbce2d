/**
 * Tests that need a program this machine may lack (`keyctl`, `tmux`, `git`, `bwrap`,
 * `script`): skipped, with one line naming the program, instead of failing.
 *
 * @module
 */

const found = new Map<string, boolean>();
const reported = new Set<string>();

/** Whether `program` is on PATH. */
export function installed(program: string): boolean {
  let known = found.get(program);
  if (known === undefined) {
    const { success } = new Deno.Command("sh", {
      args: ["-c", `command -v "$1" >/dev/null 2>&1`, "sh", program],
      stdout: "null",
      stderr: "null",
    }).outputSync();
    known = success;
    found.set(program, known);
  }
  return known;
}

/**
 * True (ignore the test) when one of `programs` is missing; says so once per program, in one
 * line: `did not run: the tests that need keyctl: not installed`.
 */
export function skipWithout(...programs: string[]): boolean {
  const missing = programs.filter((program) => !installed(program));
  for (const program of missing) {
    if (reported.has(program)) continue;
    reported.add(program);
    console.log(`did not run: the tests that need ${program}: not installed`);
  }
  return missing.length > 0;
}

/** A test that drives the program through tmux: skipped, with one line, where tmux is missing. */
export function tmuxTest(name: string, fn: (t: Deno.TestContext) => Promise<void>): void {
  Deno.test({ name, ignore: skipWithout("tmux"), fn });
}
