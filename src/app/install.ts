/**
 * `deno task install`: puts a `powercode` command on PATH (`~/.local/bin` by default, or the
 * directory given as the first argument) that runs this checkout on the directory it is
 * started in (project mode), or, in a directory holding `workspace/`, exactly as
 * `deno task start` does.
 *
 * @module
 */
import { LAUNCH_VARIABLES } from "../config/mod.ts";

/**
 * The launcher script for the checkout at `root` (an absolute path): it runs the checkout's
 * launch step (`src/config/launch.ts`), which prints the command that starts this run with
 * its permission set, and `exec`s that command with the user's arguments; a refusal of the
 * launch step (exit 2, one line) ends it.
 * Contract: the launch step may read files and the variables it needs, and nothing else.
 */
export function launcherScript(root: string): string {
  const quoted = (path: string) => `'${path.replaceAll("'", `'\\''`)}'`;
  return [
    "#!/bin/sh",
    `# powercode, installed by "deno task install" from ${root}`,
    `command=$(deno run --config ${quoted(`${root}/deno.json`)} --allow-read ` +
    `--allow-env=${LAUNCH_VARIABLES.join(",")} --no-prompt ` +
    `${quoted(`${root}/src/config/launch.ts`)} "$@") || exit`,
    `eval "$command"' "$@"'`,
    "",
  ].join("\n");
}

async function main(args: string[]): Promise<number> {
  const root = decodeURIComponent(new URL("../..", import.meta.url).pathname).replace(/\/$/, "");
  const home = Deno.env.get("HOME");
  const dir = args[0] ?? (home ? `${home}/.local/bin` : undefined);
  if (!dir) {
    console.error("powercode install: HOME is not set; give the target directory");
    return 2;
  }
  await Deno.mkdir(dir, { recursive: true });
  const target = `${dir}/powercode`;
  await Deno.writeTextFile(target, launcherScript(root), { mode: 0o755 });
  await Deno.chmod(target, 0o755);
  console.log(`Installed ${target}: run powercode in your project's directory`);
  if (!(Deno.env.get("PATH") ?? "").split(":").includes(dir)) {
    console.log(`Add ${dir} to PATH to run it by name`);
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
