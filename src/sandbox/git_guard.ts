/**
 * The git rule (see `git_control.ts`) for sandboxed commands: every git directory in the
 * workspace is mounted read-only for the run, and what a command made that git would take as
 * a repository is renamed after it, before anyone can run git there.
 *
 * @module
 */
import { GIT_LINK } from "../workspace/mod.ts";
import { type GitEntry, type ScanCache, scanGit } from "./git_scan.ts";
import { type PlaceholderReaper, watchPlaceholders } from "./placeholder_reaper.ts";

/** The bwrap mounts for one run, the placeholders created for them, and what they protect. */
export interface GitGuard {
  /** The workspace root the guard was made for. */
  root: string;
  /** bwrap arguments; they must follow the workspace's own bind. */
  args: string[];
  /** Placeholders made on disk for the run, to remove with {@linkcode releaseGitGuard}. */
  created: string[];
  /** Removes the placeholders should powercode be killed before it releases the guard. */
  reaper?: PlaceholderReaper;
  /** The identities of the git entries protected for the run (see {@linkcode checkGitAfter}). */
  known: ReadonlySet<string>;
  /** Directories that could not be read, mounted read-only whole; left as they are after. */
  unreadable: ReadonlySet<string>;
  /** The listings the scans share, when the caller keeps them from run to run. */
  cache?: ScanCache;
}

/** What a renamed entry gets after its name, so that git no longer uses it. */
export const REFUSED_SUFFIX = ".refused";

/**
 * Prepares the mounts that protect the git directories of the workspace at `root` (a function
 * of that one root: call it once per root).
 *
 * Contract: every entry named `.git` (a directory, or a `gitdir:` file) and every git
 * directory found in the tree (bare repositories, the targets of `.git` files and `commondir`
 * files inside the workspace) is bound read-only onto itself, so it can be neither changed nor
 * renamed or replaced during the run; so are directories that cannot be read. A missing `.git`
 * at the root becomes an empty read-only placeholder, so `git init` fails there; a watcher
 * removes it should powercode be killed before {@linkcode releaseGitGuard}. A symbolic
 * link named `.git` cannot be mounted: its target, when a git directory in the workspace, is.
 */
export async function guardGit(
  root: string,
  options: { cache?: ScanCache } = {},
): Promise<GitGuard> {
  const created: string[] = [];
  const dir = `${root}/${GIT_LINK}`;
  let reaper: PlaceholderReaper | undefined;
  try {
    await Deno.lstat(dir);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    reaper = watchPlaceholders([dir]);
    try {
      await Deno.mkdir(dir);
    } catch (error) {
      await reaper.release();
      throw error;
    }
    created.push(dir);
  }
  const scan = scanGit(root, options);
  const args: string[] = [];
  for (const { kind, path } of scan.entries) {
    if (kind === "directory" || kind === "file") args.push("--ro-bind", path, path);
  }
  for (const path of scan.unreadable) args.push("--ro-bind", path, path);
  return {
    root,
    args,
    created,
    known: new Set(scan.entries.map((entry) => entry.id)),
    unreadable: new Set(scan.unreadable),
    ...(reaper ? { reaper } : {}),
    ...options,
  };
}

/**
 * After a run: renames every entry named `.git` and the `HEAD` of every git directory that
 * the run made or changed (by identity, so a protected directory a command moved stays), to
 * `<name>.refused`, deepest first, so git no longer takes any of them as a repository.
 * Directories a command made unreadable are first made readable for their owner.
 * Contract: never throws; returns one line per entry renamed, or that could not be.
 */
export function checkGitAfter(guard: GitGuard): string[] {
  const scan = scanGit(guard.root, {
    descend: (entry) => !guard.known.has(entry.id),
    unlock: (dir) => !guard.unreadable.has(dir),
    ...(guard.cache ? { cache: guard.cache } : {}),
  });
  const fresh = scan.entries.filter((entry) => !guard.known.has(entry.id)).toReversed();
  const lines = fresh.flatMap((entry) => refuse(guard.root, entry));
  for (const dir of scan.unreadable) {
    if (guard.unreadable.has(dir)) continue;
    lines.push(
      `Could not check "${relative(guard.root, dir)}": it cannot be read; do not run git in it`,
    );
  }
  return lines;
}

/**
 * Removes the placeholders of `guard` that are still empty, newest first.
 * Contract: never throws; a placeholder someone filled meanwhile stays.
 */
export async function releaseGitGuard(guard: GitGuard): Promise<void> {
  for (const path of guard.created.toReversed()) {
    try {
      const info = await Deno.lstat(path);
      if (info.isFile && info.size > 0) continue;
      await Deno.remove(path);
    } catch {
      // not empty, or already gone
    }
  }
  await guard.reaper?.release();
}

/** Renames what makes `entry` git's: the entry itself (a `.git`), or its `HEAD`. */
function refuse(root: string, entry: GitEntry): string[] {
  if (entry.role === "directory" && !entry.hasHead) return [];
  const path = entry.role === "link" ? entry.path : `${entry.path}/HEAD`;
  const name = relative(root, path);
  try {
    const target = freeName(`${path}${REFUSED_SUFFIX}`);
    Deno.renameSync(path, target);
    return [`Renamed "${name}" to "${relative(root, target)}"`];
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return [`Could not rename "${name}": ${reason}; do not run git in it`];
  }
}

/** `path`, or `path.2`, `path.3`, … : the first that does not exist. */
function freeName(path: string): string {
  for (let n = 1;; n++) {
    const candidate = n === 1 ? path : `${path}.${n}`;
    try {
      Deno.lstatSync(candidate);
    } catch {
      return candidate;
    }
  }
}

function relative(root: string, path: string): string {
  return path === root ? "." : path.slice(root.length + 1);
}
