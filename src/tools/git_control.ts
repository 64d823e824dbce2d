/**
 * The files in a workspace that git runs or obeys outside the sandbox: `.git/hooks/` and
 * `.git/config` (and a `.git` file, a worktree's pointer). Protected by default: the file
 * tools refuse to write them and bash sees them read-only; `--allow-git-hooks` makes them
 * writable.
 *
 * @module
 */

/** Whether git's control files are `protected` (the default) or `writable` (`--allow-git-hooks`). */
export type GitControl = "protected" | "writable";

/**
 * Throws when `relative` (a workspace-relative path, symbolic links resolved) is
 * git-controlled, with a message about `path` (as the model named it) saying why and how
 * to allow it.
 */
export function refuseGitControl(relative: string, path: string): void {
  const controlled = relative === ".git" || relative === ".git/config" ||
    relative === ".git/hooks" || relative.startsWith(".git/hooks/");
  if (!controlled) return;
  throw new Deno.errors.PermissionDenied(
    `Cannot change "${path}": git runs its hooks and obeys .git/config outside the sandbox, ` +
      "so they are read-only (the user can start powercode with --allow-git-hooks)",
  );
}
