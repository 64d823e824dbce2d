/**
 * Keeps sandboxed commands from planting files that git runs later, outside
 * the sandbox: the workspace's `.git/hooks/` and `.git/config` are mounted
 * read-only for the run.
 *
 * @module
 */

/** The bwrap mounts for one run, and the empty placeholders created for them. */
export interface GitGuard {
  /** bwrap arguments; they must follow the workspace's own bind. */
  args: string[];
  /** Placeholders made on disk for the run, to remove with {@linkcode releaseGitGuard}. */
  created: string[];
}

/**
 * Prepares the mounts that protect the git directory of the workspace at `root`.
 *
 * Contract: `.git` as a directory is bound onto itself, so it cannot be
 * renamed or replaced during the run, and `hooks/` and `config` in it are
 * read-only (made as empty placeholders when missing). A `.git` file (a
 * worktree's `gitdir:` pointer) or symlink is read-only as a whole. A missing
 * `.git` becomes an empty read-only placeholder, so a command cannot create a
 * repository with hooks (`git init` fails).
 *
 * Limit: only the workspace root's `.git` is covered: nested repositories,
 * a `gitdir:` target inside the workspace and submodule git directories
 * (`.git/modules/`) are not.
 */
export async function guardGit(root: string): Promise<GitGuard> {
  const dir = `${root}/.git`;
  const kind = await kindOf(dir);
  if (kind === "missing") {
    await Deno.mkdir(dir);
    return { args: ["--ro-bind", dir, dir], created: [dir] };
  }
  if (kind === "other") return { args: ["--ro-bind-try", dir, dir], created: [] };
  const guard: GitGuard = { args: ["--bind", dir, dir], created: [] };
  for (const name of ["hooks", "config"]) {
    const path = `${dir}/${name}`;
    if (await kindOf(path) === "missing") {
      await (name === "hooks" ? Deno.mkdir(path) : Deno.writeFile(path, new Uint8Array()));
      guard.created.push(path);
    }
    guard.args.push("--ro-bind-try", path, path);
  }
  return guard;
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
}

async function kindOf(path: string): Promise<"missing" | "directory" | "other"> {
  try {
    const info = await Deno.lstat(path);
    return info.isDirectory ? "directory" : "other";
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "missing";
    throw error;
  }
}
