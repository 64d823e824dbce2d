/**
 * The files in a workspace that git runs or obeys outside the sandbox: `.git/hooks/` and
 * `.git/config` (and a `.git` file, a worktree's pointer). The file tools refuse to write
 * them unless the user allowed it (`--allow-git-hooks`); bash sees them read-only.
 *
 * @module
 */
import type { Workspace } from "./workspace.ts";

/**
 * Throws when `absolute` (a path returned by `workspace.resolve`, symbolic links resolved)
 * is git-controlled, with a message saying why and how to allow it.
 */
export function refuseGitControl(workspace: Workspace, absolute: string, path: string): void {
  const relative = workspace.relative(absolute);
  const controlled = relative === ".git" || relative === ".git/config" ||
    relative === ".git/hooks" || relative.startsWith(".git/hooks/");
  if (!controlled) return;
  throw new Deno.errors.PermissionDenied(
    `Cannot change "${path}": git runs its hooks and obeys .git/config outside the sandbox, ` +
      "so they are read-only (the user can start powercode with --allow-git-hooks)",
  );
}
