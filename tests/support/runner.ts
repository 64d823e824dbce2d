/**
 * The one way end-to-end tests start a program and wait for it: piped output, the given
 * stdin, a cleared environment, and the run's code and text.
 *
 * @module
 */

/** What a finished run printed and returned. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** How to start one program. */
export interface ProgramOptions {
  args: readonly string[];
  cwd: string;
  /** The whole environment of the program: nothing else is passed on. */
  env: Record<string, string>;
  /** Text written to stdin, which is then closed; `null`: stdin is /dev/null. Default `""`. */
  stdin?: string | null;
}

/** Starts `command` with piped stdout and stderr, and stdin piped unless `stdin` is null. */
export function spawnProgram(command: string, options: ProgramOptions): Deno.ChildProcess {
  return new Deno.Command(command, {
    args: [...options.args],
    cwd: options.cwd,
    clearEnv: true,
    env: options.env,
    stdin: options.stdin === null ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/**
 * Runs `command` to completion: writes `stdin`, closes it, and decodes what it printed.
 * Contract: never throws for a failing program; its code is in the result.
 */
export async function run(command: string, options: ProgramOptions): Promise<RunResult> {
  return await finish(
    spawnProgram(command, options),
    options.stdin === undefined ? "" : options.stdin,
  );
}

/** Writes `stdin` to a child started with piped stdio, closes it, and waits for the result. */
export async function finish(child: Deno.ChildProcess, stdin: string | null): Promise<RunResult> {
  if (stdin !== null) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const output = await child.output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}
