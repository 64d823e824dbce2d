/**
 * The values an export must not hold because the user hid their files from the agent: the
 * lines of the files `.powercodeignore` matches (a `.env`), and the value of each
 * `NAME=value` line among them.
 *
 * @module
 */

/** The workspace as far as ignored files go. */
export interface IgnoredFiles {
  /** The workspace directory, as Deno's permissions cover it. */
  root: string;
  /** The ignored prefix of `path` (relative to the root), or undefined (`IgnoreRules.match`). */
  match(path: string, isDirectory: boolean): string | undefined;
}

/** Shorter values are left out: they would match ordinary words. */
const MIN_VALUE_LENGTH = 8;
const MAX_FILES = 200;
const MAX_FILE_BYTES = 64 * 1024;

/**
 * Each value found in the ignored files, with the words a refusal names it by.
 * Contract: never throws; reads at most 200 regular files of at most 64 KB each, follows no
 * symbolic link and skips `.git`.
 */
export async function ignoredSecrets(files: IgnoredFiles): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const paths: string[] = [];
  await collect(files, "", false, paths);
  for (const path of paths) {
    let text: string;
    try {
      const info = await Deno.lstat(`${files.root}/${path}`);
      if (!info.isFile || info.size > MAX_FILE_BYTES) continue;
      text = await Deno.readTextFile(`${files.root}/${path}`);
    } catch {
      continue;
    }
    const kind = `the contents of "${path}" (a file .powercodeignore hides)`;
    for (const value of valuesOf(text)) if (!found.has(value)) found.set(value, kind);
  }
  return found;
}

/** The ignored files under `dir` (all of them once `inside` an ignored directory). */
async function collect(
  files: IgnoredFiles,
  dir: string,
  inside: boolean,
  paths: string[],
): Promise<void> {
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir === "" ? files.root : `${files.root}/${dir}`));
  } catch {
    return;
  }
  for (const entry of entries) {
    if (paths.length >= MAX_FILES) return;
    if (entry.isSymlink || entry.name === ".git") continue;
    const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
    const ignored = inside || files.match(path, entry.isDirectory) !== undefined;
    if (entry.isDirectory) await collect(files, path, ignored, paths);
    else if (ignored && entry.isFile) paths.push(path);
  }
}

/** Each line of `text` and each `NAME=value` or `name: value` value, without quotes. */
function valuesOf(text: string): string[] {
  const values: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    values.push(line);
    const value = /^(?:export\s+)?[\w.-]+\s*[=:]\s*(.*)$/.exec(line)?.[1]?.trim();
    if (value !== undefined) values.push(value.replace(/^(["'])(.*)\1$/, "$2"));
  }
  return values.filter((value) => value.length >= MIN_VALUE_LENGTH);
}
