/**
 * `deno task install`: puts a `powercode` command on PATH (`~/.local/bin` by default, or the
 * directory given as the first argument) that runs this checkout on the directory it is
 * started in (project mode), or, in a directory holding `workspace/`, exactly as
 * `deno task start` does.
 *
 * @module
 */
import denoConfig from "../../deno.json" with { type: "json" };
import { LAUNCH_VARIABLES, startFlags } from "../config/mod.ts";

/**
 * The launcher script for the checkout at `root` (an absolute path), with the `start`
 * task's flags baked in for the workspace layout.
 *
 * In a directory holding `workspace/`, with no argument that could be `--dir`, `-C` or
 * `--add-dir`, it starts the program at once with exactly the `start` task's flags (one
 * process, as fast as before project mode). Otherwise it runs the checkout's launch step
 * (`src/config/launch.ts`), which prints the command that starts this run with its
 * permission set, and `exec`s that command with the user's arguments; a refusal of the
 * launch step (exit 2, one line) ends it.
 * Contract: a wrong guess of the fast path is safe: the program refuses project flags in
 * the workspace layout, and the launch step decides everything else itself. The launch
 * step may read files and the variables it needs, and nothing else.
 */
export function launcherScript(root: string, startTask: string): string {
  const flags = startFlags(startTask).map(quote).join(" ");
  return [
    "#!/bin/sh",
    `# powercode, installed by "deno task install" from ${root}`,
    "if [ -d workspace ]; then",
    "  layout=yes",
    '  for arg in "$@"; do',
    "    case $arg in --dir* | --add-dir*) layout= ;; --*) ;; -*C*) layout= ;; esac",
    "  done",
    '  if [ -n "$layout" ]; then',
    "    unset POWERCODE_PROJECT",
    `    exec deno run --config ${quote(`${root}/deno.json`)} ${flags} ${
      quote(`${root}/main.ts`)
    } "$@"`,
    "  fi",
    "fi",
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
  await Deno.writeTextFile(target, launcherScript(root, denoConfig.tasks.start), { mode: 0o755 });
  await Deno.chmod(target, 0o755);
  console.log(`Installed ${target}: run powercode in your project's directory`);
  if (!(Deno.env.get("PATH") ?? "").split(":").includes(dir)) {
    console.log(`Add ${dir} to PATH to run it by name`);
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
