/**
 * `.powercodeignore` at the workspace's first root: reading its rules, and finding the
 * entries they ignore, which the bash sandbox masks at each command's start.
 *
 * @module
 */
import { IgnoreRules } from "./ignore_rules.ts";

/** The ignore file's name, at the first root. */
export const IGNORE_FILE = ".powercodeignore";

/** Largest ignore file read (1 MB): the rules are for people to write. */
const MAX_IGNORE_BYTES = 1024 * 1024;

/** Makes `path` an empty regular file unless it is one. */
async function makeEmpty(path: string): Promise<void> {
  const info = await Deno.lstat(path).catch(() => undefined);
  if (info?.isFile && info.size === 0) return;
  if (info !== undefined) await Deno.remove(path, { recursive: true });
  await Deno.writeFile(path, new Uint8Array(), { createNew: true });
}

/** An ignored entry below a root, and whether it is a directory. */
export interface IgnoredEntry {
  /** The absolute path, below the path the root was opened by. */
  path: string;
  isDirectory: boolean;
}

/**
 * Reads the ignore file of the directory at `dir` (an absolute path).
 * Contract: no file means no rules; throws a `TypeError` naming the file when it is not a
 * regular file (a symbolic link included: its target could lie anywhere) or is larger than
 * 1 MB.
 */
export async function loadIgnoreRules(dir: string): Promise<IgnoreRules> {
  const path = `${dir}/${IGNORE_FILE}`;
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return IgnoreRules.NONE;
    throw error;
  }
  if (!info.isFile) {
    throw new TypeError(`Cannot read "${path}": it is not a regular file; make it one`);
  }
  if (info.size > MAX_IGNORE_BYTES) {
    throw new TypeError(`Cannot read "${path}": it is larger than 1 MB`);
  }
  return IgnoreRules.parse(await Deno.readTextFile(path));
}

/**
 * The entries below `dir` that `rules` ignore, as they exist now: an ignored directory is
 * listed itself, not what it holds.
 * Contract: follows no symbolic link and lists none (a link's target is masked where it
 * lies, when it is ignored there); never descends into `.git`; reads nothing when there
 * are no rules. Reads synchronously: two and a half times faster than entry by entry
 * through promises (about 25 ms for 20 000 entries here), and done before a command starts.
 */
export function findIgnored(dir: string, rules: IgnoreRules): IgnoredEntry[] {
  const found: IgnoredEntry[] = [];
  if (rules.size === 0) return found;
  const walk = (relative: string): void => {
    for (const entry of Deno.readDirSync(relative === "" ? dir : `${dir}/${relative}`)) {
      if (entry.isSymlink || entry.name === ".git") continue;
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (rules.ignores(path, entry.isDirectory)) {
        found.push({ path: `${dir}/${path}`, isDirectory: entry.isDirectory });
      } else if (entry.isDirectory) {
        walk(path);
      }
    }
  };
  walk("");
  return found;
}

/** The bwrap arguments of `.powercodeignore` for one command, in two groups by place. */
export interface IgnoreMounts {
  /**
   * Each directory on the way from the root to an ignored entry, bound onto itself: a mount
   * point cannot be renamed or removed (EBUSY), so no command can move an ignored entry to
   * a name the rules do not match. They follow the root's bind and precede every other mount
   * inside it (bwrap binds from the host's view, which would cover an earlier mount).
   */
  pins: string[];
  /** The masks and the read-only ignore file; they come last. */
  masks: string[];
}

/**
 * The bwrap arguments that apply `rules` at a command's start in the root at `dir`:
 * each ignored file is covered by `empty`, an empty file outside the sandbox's reach,
 * bound read-only (it reads empty and cannot be written; `/dev/null` would refuse to open,
 * since bwrap mounts it without device access), each ignored directory by an empty
 * read-only tmpfs, the directories holding them are pinned (see {@linkcode IgnoreMounts}),
 * and the ignore file itself is read-only, so a command cannot loosen the rules for later
 * sessions.
 * Without `empty`, files are covered by `/dev/null` (they cannot be opened at all).
 * Contract: `empty` is made (or emptied) when a file is to be covered; an ignored entry,
 * the ignore file and every directory holding an ignored entry are mount points, so none
 * can be renamed, moved or removed.
 */
export async function ignoreMounts(
  dir: string,
  rules: IgnoreRules,
  empty: string | undefined,
): Promise<IgnoreMounts> {
  const ignored = findIgnored(dir, rules);
  if (empty !== undefined && ignored.some((entry) => !entry.isDirectory)) await makeEmpty(empty);
  const cover = empty ?? "/dev/null";
  const masks = ignored.flatMap(({ path, isDirectory }) =>
    isDirectory ? ["--tmpfs", path, "--remount-ro", path] : ["--ro-bind", cover, path]
  );
  const file = `${dir}/${IGNORE_FILE}`;
  const exists = await Deno.lstat(file).then(() => true, () => false);
  if (exists) masks.push("--ro-bind", file, file);
  return { pins: parentsOf(dir, ignored).flatMap((path) => ["--bind", path, path]), masks };
}

/** The directories below `dir` that hold an entry of `entries`, each parent before its children. */
function parentsOf(dir: string, entries: readonly IgnoredEntry[]): string[] {
  const parents = new Set<string>();
  for (const { path } of entries) {
    const below = path.slice(dir.length + 1).split("/").slice(0, -1);
    for (let end = 1; end <= below.length; end++) {
      parents.add(`${dir}/${below.slice(0, end).join("/")}`);
    }
  }
  return [...parents];
}
