/**
 * Time to the first prompt on a terminal: `deno task start` under a pseudo-terminal made by
 * `script` (util-linux), from launch until the REPL's `> ` prompt appears in its output.
 *
 * @module
 */
import { childEnv } from "../tests/support/project.ts";

/** The prompt as it reaches the terminal: at the start of a line, after any CSI sequences. */
// deno-lint-ignore no-control-regex -- the escape sequences are what a terminal receives
const PROMPT = /(^|\n)(\x1b\[[0-9;?]*[A-Za-z])*> /;
const TIMEOUT_MS = 20_000;

/**
 * Launches the REPL in `dir` on a pseudo-terminal and returns the milliseconds until its
 * first prompt was printed; the process is then ended with Ctrl+D.
 * Contract: throws when `script` is missing or no prompt comes within 20 s.
 */
export async function timeToPrompt(dir: string): Promise<number> {
  const started = performance.now();
  const child = new Deno.Command("script", {
    args: ["-qfec", "deno task --quiet start", "/dev/null"],
    cwd: dir,
    clearEnv: true,
    env: { ...childEnv(), TERM: "xterm-256color" },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
  try {
    let seen = "";
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) {
      seen += decoder.decode(chunk, { stream: true });
      if (PROMPT.test(seen)) {
        const elapsed = performance.now() - started;
        const writer = child.stdin.getWriter();
        await writer.write(new Uint8Array([4])).catch(() => {});
        await writer.close().catch(() => {});
        return elapsed;
      }
    }
    throw new Error(
      `Cannot measure the prompt time: no prompt, the terminal showed ${JSON.stringify(seen)}`,
    );
  } finally {
    clearTimeout(timer);
    await child.stdout.cancel().catch(() => {});
    await child.status.catch(() => {});
  }
}
