/**
 * What the launch step prints for the launcher: `sh` code that sets the command of this run
 * and the facts it depends on, which the launcher `eval`s and keeps as its cache entry
 * (see `src/app/install.ts`).
 *
 * @module
 */
import { parseCli } from "./cli.ts";
import { OBSERVED_FILE_FORMAT, type PathRecorder } from "./path_record.ts";

/** The folders of the checkout holding the launch step's modules (besides `deno.json`). */
const LAUNCH_CODE = ["src/config", "src/core", "vendor/std/cli"];

/**
 * Records the checkout's files the launch step is made of: `deno.json`, `deno.lock` and every
 * file of the folders its modules come from, so that an updated checkout invalidates entries.
 */
export function recordCheckout(recorder: PathRecorder, root: string): void {
  recorder.record(`${root}/deno.json`);
  recorder.record(`${root}/deno.lock`);
  for (const folder of LAUNCH_CODE) {
    const dir = `${root}/${folder}`;
    recorder.record(dir);
    const names = Array.from(Deno.readDirSync(dir), (entry) => entry.name).sort();
    for (const name of names) recorder.record(`${dir}/${name}`);
  }
}

/**
 * The `sh` text of a launch: `powercode_command` (the command, without the user's
 * arguments), `powercode_stat FORMAT` (to run in a subshell only: fails unless each recorded
 * directory still is one, not a link, tested by the shell itself, then `exec`s GNU
 * `stat -c FORMAT`, without following links, errors dropped, on the other recorded paths),
 * `powercode_observed` (what that printed with {@linkcode OBSERVED_FILE_FORMAT} when the
 * launch looked), `powercode_observed_format`, and `powercode_cacheable=1` when the entry may
 * be kept ({@linkcode promptKeyHolds}). Every value is single-quoted.
 */
export function launchEntry(
  command: string,
  recorder: PathRecorder,
  args: readonly string[],
): string {
  const directories = recorder.directories().map((dir) =>
    `[ -d ${quote(dir)} ] && [ ! -h ${quote(dir)} ] && `
  );
  return [
    `powercode_command=${quote(command)}`,
    `powercode_stat() { ${directories.join("")}` +
    `exec stat -c "$1" -- ${recorder.others().map(quote).join(" ")} 2>/dev/null; }`,
    `powercode_observed=${quote(recorder.observed())}`,
    `powercode_observed_format=${quote(OBSERVED_FILE_FORMAT)}`,
    ...(promptKeyHolds(args) ? ["powercode_cacheable=1"] : []),
    "",
  ].join("\n");
}

/**
 * Whether one entry may serve every prompt of these arguments: the launcher's key leaves out
 * each argument that follows `-p` or `--print` and does not start with `-`, which is right
 * only when the arguments parse and each argument left out is the prompt.
 */
export function promptKeyHolds(args: readonly string[]): boolean {
  let print: string | undefined;
  try {
    print = parseCli([...args]).print;
  } catch {
    return false;
  }
  return args.every((arg, index) => {
    const left = index > 0 && /^(-p|--print)$/.test(args[index - 1]!) && !arg.startsWith("-");
    return !left || arg === print;
  });
}

/** `word` as one single-quoted `sh` word. */
export function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
