/**
 * End-to-end harness for project mode: `deno task install` into a temp directory, a temp
 * home of its own (HOME, and the XDG directories under it by default) holding a project,
 * and runs of the installed `powercode` command in it.
 *
 * @module
 */
import { run, type RunResult } from "./runner.ts";

const ROOT = decodeURIComponent(new URL("../../", import.meta.url).pathname);

/** Options for one run of the installed command. */
export interface InstalledRunOptions {
  /** The working directory (default: the project). */
  cwd?: string;
  env?: Record<string, string>;
  stdin?: string;
}

/** A temp home with the installed command and a project directory in it. */
export interface InstalledHome extends AsyncDisposable {
  /** The temp home (its real path): HOME of every run. */
  home: string;
  /** `home/project`, the directory runs start in. */
  project: string;
  /** Where the default provider file lives: `home/.config/powercode/provider.json`. */
  providerFile: string;
  /** Where project states live: `home/.local/state/powercode/projects`. */
  states: string;
  /** Writes the default provider file. */
  writeProvider(config: Record<string, unknown>): Promise<void>;
  /** Runs the installed `powercode ARGS` to completion. */
  run(args: string[], options?: InstalledRunOptions): Promise<RunResult>;
}

/**
 * Installs powercode with `deno task install` and makes a temp home with a project, in
 * `parent` when given (outside /tmp, for a test of what the sandbox, whose /tmp is its own,
 * sees of the home); from `checkout` when given (a copy of this one), else this checkout.
 */
export async function createInstalledHome(
  options: { parent?: string; checkout?: string } = {},
): Promise<InstalledHome> {
  const home = await Deno.realPath(
    await Deno.makeTempDir({
      prefix: "powercode-home-",
      ...(options.parent ? { dir: options.parent } : {}),
    }),
  );
  const bin = `${home}/bin`;
  const install = await new Deno.Command("deno", {
    args: ["task", "--quiet", "install", bin],
    cwd: options.checkout ?? ROOT,
  }).output();
  if (install.code !== 0) throw new Error(new TextDecoder().decode(install.stderr));
  const project = `${home}/project`;
  await Deno.mkdir(project);
  const providerFile = `${home}/.config/powercode/provider.json`;
  return {
    home,
    project,
    providerFile,
    states: `${home}/.local/state/powercode/projects`,
    async writeProvider(config) {
      await Deno.mkdir(`${home}/.config/powercode`, { recursive: true });
      await Deno.writeTextFile(providerFile, JSON.stringify(config));
    },
    run: (args, options = {}) =>
      run(`${bin}/powercode`, {
        args,
        cwd: options.cwd ?? project,
        env: { ...baseEnv(home), ...options.env },
        stdin: options.stdin ?? "",
      }),
    async [Symbol.asyncDispose]() {
      await Deno.remove(home, { recursive: true });
    },
  };
}

/** The environment of a run: the temp HOME, and deno's own cache where it is now. */
function baseEnv(home: string): Record<string, string> {
  const realHome = Deno.env.get("HOME");
  const denoDir = Deno.env.get("DENO_DIR") ??
    (realHome === undefined ? undefined : `${realHome}/.cache/deno`);
  return {
    HOME: home,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    NO_COLOR: "1",
    ...(denoDir === undefined ? {} : { DENO_DIR: denoDir }),
  };
}

/** Every path below `dir` with its content (directories end in `/`), sorted. */
export async function snapshot(dir: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  const walk = async (relative: string) => {
    for await (const entry of Deno.readDir(`${dir}/${relative}`)) {
      const path = `${relative}${entry.name}`;
      if (entry.isDirectory) {
        found[`${path}/`] = "";
        await walk(`${path}/`);
      } else {
        found[path] = entry.isSymlink
          ? `-> ${await Deno.readLink(`${dir}/${path}`)}`
          : await Deno.readTextFile(`${dir}/${path}`);
      }
    }
  };
  await walk("");
  return Object.fromEntries(Object.entries(found).sort(([a], [b]) => a < b ? -1 : 1));
}
