/**
 * The workspace: the one directory the agent's tools may touch, and the single
 * place where a path from the model becomes an absolute path on disk.
 *
 * @module
 */
import { refuseSpecialFile } from "./file_kind.ts";
import { type GitControl, refuseGitWrite } from "./git_control.ts";
import type { ParamSpec } from "./params.ts";
import { formatSize } from "./truncate.ts";

/** Largest file edit_file changes and largest content the file tools write (10 MB). */
export const MAX_EDIT_BYTES = 10 * 1024 * 1024;

/** The `path` parameter shared by the file tools. */
export const PATH_PARAMETER = {
  type: "string",
  description: "File path relative to the workspace root (an absolute path must be inside " +
    "the workspace)",
} as const satisfies ParamSpec;

/** Where a write goes once every guard passed, and what exists there now. */
export interface WriteTarget {
  /** The path to write, as {@linkcode Workspace.resolve} returns it. */
  absolute: string;
  /** The entry at the path (a regular file or a directory), or undefined when there is none. */
  existing: Deno.FileInfo | undefined;
}

/**
 * A workspace: a directory, possibly reached through a symbolic link (`workspace/` pointing
 * at the user's project), whose real (symlink-free) path is its root.
 *
 * Contract: every path a tool touches comes from {@linkcode Workspace.resolve},
 * which refuses `..` escapes, absolute paths outside the root, symbolic links
 * leading outside and dangling symbolic links.
 * Contract: needs read permission on the directory as it was named only (Deno checks
 * permissions on the path it is given, so the returned paths go through that name,
 * never through the real root); it never reads or stats anything outside.
 * Limit: the check and the later file operation are not atomic; a process
 * swapping a directory for a symlink in between is not detected. Hard links
 * cannot be told apart from ordinary files.
 */
export class Workspace {
  /** The real absolute path of the workspace directory. */
  readonly root: string;
  /** Whether the file tools may write git's directories (see {@linkcode resolveWrite}). */
  readonly gitControl: GitControl;
  /** The absolute path the directory was opened by; file operations go through it. */
  readonly #access: string;

  private constructor(root: string, access: string, gitControl: GitControl) {
    this.root = root;
    this.#access = access;
    this.gitControl = gitControl;
  }

  /**
   * The absolute path the workspace was opened by (the link itself when `workspace/` is a
   * symbolic link): the path to give anything that goes through Deno's permission checks.
   */
  get path(): string {
    return this.#access;
  }

  /**
   * Opens the workspace at `dir` (relative to the current directory or absolute); git's
   * directories are `protected` unless `options.gitControl` says otherwise.
   * Contract: throws `Deno.errors.NotFound` naming the directory when it is
   * missing and `TypeError` when it is not a directory.
   */
  static async open(
    dir: string,
    options: { gitControl?: GitControl } = {},
  ): Promise<Workspace> {
    let root: string;
    try {
      root = await Deno.realPath(dir);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        throw new Deno.errors.NotFound(
          `Cannot open workspace "${dir}": directory does not exist; create it first`,
        );
      }
      throw error;
    }
    // Stat through the name given: permission to read the real path may be missing.
    const info = await Deno.stat(dir);
    if (!info.isDirectory) {
      throw new TypeError(`Cannot open workspace "${dir}": not a directory`);
    }
    const access = normalize(dir.startsWith("/") ? dir : `${Deno.cwd()}/${dir}`);
    return new Workspace(root, access, options.gitControl ?? "protected");
  }

  /**
   * Turns a path from the model into the absolute path to access it by.
   * Relative paths are taken from the root; absolute paths must lie inside it (by its
   * real path or by the path it was opened by).
   * Existing symbolic links on the way are resolved, the missing tail is kept.
   * Contract: the result's real path is inside the root (or the root itself); the result
   * itself starts with the path the workspace was opened by, so Deno's permissions for
   * that path cover it. Otherwise throws a `PermissionDenied` whose message contains
   * "path escapes the workspace".
   * Contract: refuses empty paths, NUL bytes and dangling symbolic links.
   */
  async resolve(path: string): Promise<string> {
    if (path === "") throw new TypeError(`Cannot access "": the path is empty`);
    if (path.includes("\0")) {
      throw new TypeError(`Cannot access ${JSON.stringify(path)}: the path contains a NUL byte`);
    }
    const lexical = normalize(path.startsWith("/") ? path : `${this.#access}/${path}`);
    const inside = within(this.#access, lexical) ?? within(this.root, lexical);
    if (inside === undefined) throw escapeError(path);
    let existing = `${this.#access}${inside}`;
    const tail: string[] = [];
    while (!(await exists(existing))) {
      if (existing === this.#access) {
        throw new Deno.errors.NotFound(
          `Cannot access "${path}": the workspace "${this.root}" no longer exists`,
        );
      }
      const cut = existing.lastIndexOf("/");
      tail.unshift(existing.slice(cut + 1));
      existing = existing.slice(0, cut) || "/";
    }
    let real: string;
    try {
      real = await Deno.realPath(existing);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        throw new Deno.errors.NotFound(
          `Cannot access "${path}": "${this.relative(existing)}" is a dangling symbolic link`,
        );
      }
      throw error;
    }
    const below = within(this.root, real);
    if (below === undefined) throw escapeError(path);
    const resolved = `${this.#access}${below}`;
    return tail.length === 0 ? resolved : `${resolved === "/" ? "" : resolved}/${tail.join("/")}`;
  }

  /**
   * Resolves `path` for a write of `bytes` new bytes (when known) through every guard of the
   * file tools, in this order: the size, the escapes {@linkcode resolve} refuses, git's
   * control files, and what exists at the path.
   * Contract: throws an Error whose message starts with `Cannot <action> "<path>":` (for git's
   * files `Cannot change "<path>":`) when `bytes` exceed {@linkcode MAX_EDIT_BYTES}, the path
   * escapes, it goes through a `.git` or into a git directory (or would make one) while
   * `gitControl` is `protected` (see `refuseGitWrite`), or it is a FIFO, socket or device node.
   * A directory is the caller's to refuse.
   */
  async resolveWrite(
    path: string,
    options: { action: string; bytes?: number },
  ): Promise<WriteTarget> {
    const { action, bytes } = options;
    if (bytes !== undefined && bytes > MAX_EDIT_BYTES) {
      throw new RangeError(
        `Cannot ${action} "${path}": the new content is ${formatSize(bytes)}, more than the ` +
          `${formatSize(MAX_EDIT_BYTES)} the file tools write; produce large files with bash`,
      );
    }
    const absolute = await this.resolve(path);
    if (this.gitControl === "protected") {
      await refuseGitWrite(this.#access, this.relative(absolute), path);
    }
    const existing = await Deno.stat(absolute).catch(() => undefined);
    if (existing) refuseSpecialFile(existing, path, action);
    return { absolute, existing };
  }

  /**
   * The path of `absolute` (under the root or the path the workspace was opened by)
   * relative to the workspace, for messages: `"."` for the workspace itself, the input
   * unchanged when it lies outside.
   */
  relative(absolute: string): string {
    const inside = within(this.#access, absolute) ?? within(this.root, absolute);
    if (inside === undefined) return absolute;
    return inside === "" ? "." : inside.slice(1);
  }
}

/** The part of `path` below `dir` (`""` for `dir` itself, else starting with `/`). */
function within(dir: string, path: string): string | undefined {
  if (path === dir) return "";
  if (dir === "/") return path;
  return path.startsWith(`${dir}/`) ? path.slice(dir.length) : undefined;
}

function escapeError(path: string): Deno.errors.PermissionDenied {
  return new Deno.errors.PermissionDenied(
    `Cannot access "${path}": path escapes the workspace`,
  );
}

/** Lexically normalizes an absolute POSIX path: no `.`, `..`, empty segments. */
function normalize(absolute: string): string {
  const parts: string[] = [];
  for (const segment of absolute.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") parts.pop();
    else parts.push(segment);
  }
  return `/${parts.join("/")}`;
}

/** Whether an entry exists at `path` itself (a dangling symlink exists). */
async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return false;
    }
    throw error;
  }
}
