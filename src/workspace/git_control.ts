/**
 * The git rule, one for the file tools and for bash: nothing the agent writes may make git run
 * code outside the sandbox when the user later runs git in the project. git runs the hooks and
 * obeys the config (`core.fsmonitor`, `core.hooksPath`, …) of whatever repository it finds, so
 * every git directory in the workspace is the user's alone: each entry named `.git`, and each
 * directory git takes as a repository by its contents (see {@linkcode isGitDirectory}), which
 * covers bare repositories, submodules' `.git/modules/*`, and the directories `.git` files and
 * `commondir` files point at. Protected by default; `--allow-git-writes` lifts the rule.
 *
 * @module
 */

/** Whether git's directories are `protected` (default) or `writable` (`--allow-git-writes`). */
export type GitControl = "protected" | "writable";

/** The entry git looks for in every directory on its way up: a git directory or a `gitdir:` file. */
export const GIT_LINK = ".git";

/** The entry names that make a directory a git directory (see {@linkcode isGitDirectory}). */
export const GIT_MARKERS = ["HEAD", "commondir", "objects", "refs"] as const;

/**
 * Whether a directory holding entries named `names` may be taken by git as a git directory: a
 * repository's own (`objects` and `refs`: what git requires of a common directory, where the
 * config and hooks live) or a worktree's (`HEAD` and `commondir`).
 * Contract: true for every directory git accepts as a repository, a `gitdir:` target or a
 * `commondir` target; also for any directory holding both `objects` and `refs`.
 */
export function isGitDirectory(names: ReadonlySet<string>): boolean {
  return (names.has("objects") && names.has("refs")) ||
    (names.has("HEAD") && names.has("commondir"));
}

/** The refusal of a write under the git rule, about `path` as the model named it. */
export function gitControlError(path: string): Deno.errors.PermissionDenied {
  return new Deno.errors.PermissionDenied(
    `Cannot change "${path}": git runs the hooks and obeys the config of every repository ` +
      "outside the sandbox, so .git and every git directory in the workspace are read-only " +
      "(the user can start powercode with --allow-git-writes)",
  );
}

/**
 * Throws {@linkcode gitControlError} when a write to `relative` (relative to a root of the
 * workspace, symbolic links resolved) would touch git's files: a path through an entry named
 * `.git`, or one that lies in a git directory or would make one of an existing directory on its
 * way. `access` is the root's path, through which the directories are read.
 */
export async function refuseGitWrite(
  access: string,
  relative: string,
  path: string,
): Promise<void> {
  const parts = relative === "." || relative === "" ? [] : relative.split("/");
  if (parts.includes(GIT_LINK)) throw gitControlError(path);
  let dir = access;
  for (const part of parts) {
    const names = await markersIn(dir);
    if (names === undefined) return;
    names.add(part);
    if (isGitDirectory(names)) throw gitControlError(path);
    dir = `${dir}/${part}`;
  }
}

/** Which of {@linkcode GIT_MARKERS} `dir` holds; undefined when it is not a directory. */
async function markersIn(dir: string): Promise<Set<string> | undefined> {
  try {
    if (!(await Deno.lstat(dir)).isDirectory) return undefined;
  } catch {
    return undefined;
  }
  const names = new Set<string>();
  for (const name of GIT_MARKERS) {
    try {
      await Deno.lstat(`${dir}/${name}`);
      names.add(name);
    } catch {
      // absent
    }
  }
  return names;
}
