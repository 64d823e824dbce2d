/**
 * `deno task install`: puts a `powercode` command on PATH (`~/.local/bin` by default, or the
 * directory given as the first argument) that runs this checkout with exactly the permission
 * set of `deno task start`, in whatever directory it is started.
 *
 * @module
 */
import denoConfig from "../../deno.json" with { type: "json" };

const START_PREFIX = "deno run ";
const START_SUFFIX = " main.ts";

/**
 * The launcher script for the checkout at `root` (an absolute path).
 * Contract: the flags are the `start` task's, unchanged; relative permission paths keep
 * resolving against the directory the command is started in.
 */
export function launcherScript(root: string, startTask: string): string {
  if (!startTask.startsWith(START_PREFIX) || !startTask.endsWith(START_SUFFIX)) {
    throw new TypeError(`Cannot install: the start task is not "deno run FLAGS main.ts"`);
  }
  const flags = startTask.slice(START_PREFIX.length, -START_SUFFIX.length);
  const quoted = (path: string) => `'${path.replaceAll("'", `'\\''`)}'`;
  return [
    "#!/bin/sh",
    `# powercode, installed by "deno task install" from ${root}`,
    `exec deno run --config ${quoted(`${root}/deno.json`)} ${flags} ${
      quoted(`${root}/main.ts`)
    } "$@"`,
    "",
  ].join("\n");
}

async function main(args: string[]): Promise<number> {
  const root = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
  const home = Deno.env.get("HOME");
  const dir = args[0] ?? (home ? `${home}/.local/bin` : undefined);
  if (!dir) {
    console.error("powercode install: HOME is not set; give the target directory");
    return 2;
  }
  await Deno.mkdir(dir, { recursive: true });
  const target = `${dir}/powercode`;
  await Deno.writeTextFile(target, launcherScript(root, denoConfig.tasks.start), { mode: 0o755 });
  await Deno.chmod(target, 0o755);
  console.log(`Installed ${target}: run powercode in a directory that holds workspace/`);
  if (!(Deno.env.get("PATH") ?? "").split(":").includes(dir)) {
    console.log(`Add ${dir} to PATH to run it by name`);
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
