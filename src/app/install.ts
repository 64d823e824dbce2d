/**
 * `deno task install`: puts a `powercode` command on PATH (`~/.local/bin` by default, or the
 * directory given as the first argument) that runs this checkout on the directory it is
 * started in (project mode), always: a `workspace/` there is the project's own folder.
 *
 * @module
 */
import { LAUNCH_VARIABLES } from "../config/mod.ts";

/**
 * The launcher script for the checkout at `root` (an absolute path).
 *
 * It runs the checkout's launch step (`src/config/launch.ts`), which prints the command that
 * starts this run in project mode with its permission set, and `exec`s that command with the
 * user's arguments; a refusal of the launch step (exit 2, one line) ends it.
 * Contract: never the workspace layout, whatever the current directory holds (a cloned
 * repository may hold `workspace/`, `provider.json` and `.powercode/`); the launch step may
 * read files and the variables it needs, and nothing else.
 */
export function launcherScript(root: string): string {
  return [
    "#!/bin/sh",
    `# powercode, installed by "deno task install" from ${root}`,
    `command=$(deno run --config ${quote(`${root}/deno.json`)} --allow-read ` +
    `--allow-env=${LAUNCH_VARIABLES.join(",")} --no-prompt ` +
    `${quote(`${root}/src/config/launch.ts`)} "$@") || exit`,
    `eval "$command"' "$@"'`,
    "",
  ].join("\n");
}

/** `word` as one single-quoted `sh` word. */
function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The directory `deno task install` writes to: the first argument, else `~/.local/bin`.
 * A leading `--` (the README's `deno task install -- DIR`) is no directory name.
 */
export function installDir(args: readonly string[], home: string | undefined): string | undefined {
  const [first, ...rest] = args;
  const dir = first === "--" ? rest[0] : first;
  return dir ?? (home ? `${home}/.local/bin` : undefined);
}

async function main(args: string[]): Promise<number> {
  const root = decodeURIComponent(new URL("../..", import.meta.url).pathname).replace(/\/$/, "");
  const dir = installDir(args, Deno.env.get("HOME"));
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
