/**
 * End-to-end harness: a temp copy of the project, run through `deno task start`
 * with the real permission set.
 *
 * @module
 */
import { finish, type RunResult, spawnProgram } from "./runner.ts";

export type { RunResult } from "./runner.ts";

const ROOT = new URL("../../", import.meta.url);
const COPIED = ["deno.json", "deno.lock", "main.ts", "src", "vendor"];

/** Options for one powercode run. */
export interface RunOptions {
  stdin?: string;
  env?: Record<string, string>;
  /** The deno task to run (default "start"). */
  task?: string;
}

/** A disposable copy of the project in a temp directory. */
export interface TempProject extends AsyncDisposable {
  dir: string;
  workspace: string;
  /** Writes provider.json in the project directory. */
  writeProvider(config: Record<string, unknown>): Promise<void>;
  /** Runs `deno task start ARGS` to completion. */
  run(args: string[], options?: RunOptions): Promise<RunResult>;
  /** Starts `deno task start ARGS` with piped stdio and returns the process. */
  spawn(args: string[], options?: RunOptions): Deno.ChildProcess;
}

/**
 * Copies the project (without workspace contents or sessions) into a new temp directory, in
 * `parent` when given (outside /tmp, for a test of what the sandbox, whose /tmp is its own,
 * sees beside the workspace).
 */
export async function createTempProject(options: { parent?: string } = {}): Promise<TempProject> {
  const dir = await Deno.makeTempDir({
    prefix: "powercode-e2e-",
    ...(options.parent ? { dir: options.parent } : {}),
  });
  for (const name of COPIED) {
    await copy(decodeURIComponent(new URL(name, ROOT).pathname), `${dir}/${name}`);
  }
  await Deno.mkdir(`${dir}/workspace`);
  const spawn = (args: string[], options: RunOptions = {}) =>
    spawnProgram("deno", {
      args: ["task", "--quiet", options.task ?? "start", ...args],
      cwd: dir,
      env: childEnv(options.env),
    });
  return {
    dir,
    workspace: `${dir}/workspace`,
    async writeProvider(config) {
      await Deno.writeTextFile(`${dir}/provider.json`, JSON.stringify(config, null, 2));
    },
    spawn,
    run: (args, options = {}) => finish(spawn(args, options), options.stdin ?? ""),
    async [Symbol.asyncDispose]() {
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** The environment a child gets: enough for deno to find its cache, nothing else. */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: "1" };
  for (const name of ["PATH", "HOME", "DENO_DIR"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}

async function copy(from: string, to: string): Promise<void> {
  const info = await Deno.stat(from);
  if (!info.isDirectory) return await Deno.copyFile(from, to);
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    await copy(`${from}/${entry.name}`, `${to}/${entry.name}`);
  }
}
