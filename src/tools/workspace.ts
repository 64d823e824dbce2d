/**
 * The workspace: the one directory the agent's tools may touch, and the single
 * place where a path from the model becomes an absolute path on disk.
 *
 * @module
 */

import type { ParamSpec } from "./tool.ts";

/** The `path` parameter shared by the file tools. */
export const PATH_PARAMETER = {
  type: "string",
  description: "File path relative to the workspace root (an absolute path must be inside " +
    "the workspace)",
} as const satisfies ParamSpec;

/**
 * A workspace rooted at a real (symlink-free) absolute directory.
 *
 * Contract: every path a tool touches comes from {@linkcode Workspace.resolve},
 * which refuses `..` escapes, absolute paths outside the root, symbolic links
 * leading outside and dangling symbolic links.
 * Contract: needs read permission on the workspace only; it never reads or
 * stats anything outside the root and never calls `Deno.cwd()`.
 * Limit: the check and the later file operation are not atomic; a process
 * swapping a directory for a symlink in between is not detected. Hard links
 * cannot be told apart from ordinary files.
 */
export class Workspace {
  /** The real absolute path of the workspace directory. */
  readonly root: string;

  private constructor(root: string) {
    this.root = root;
  }

  /**
   * Opens the workspace at `dir` (relative to the current directory or absolute).
   * Contract: throws `Deno.errors.NotFound` naming the directory when it is
   * missing and `TypeError` when it is not a directory.
   */
  static async open(dir: string): Promise<Workspace> {
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
    const info = await Deno.stat(root);
    if (!info.isDirectory) {
      throw new TypeError(`Cannot open workspace "${dir}": not a directory`);
    }
    return new Workspace(root);
  }

  /**
   * Turns a path from the model into the real absolute path it designates.
   * Relative paths are taken from the root; absolute paths must lie inside it.
   * Existing symbolic links on the way are resolved, the missing tail is kept.
   * Contract: the result is inside the root (or the root itself); otherwise
   * throws a `PermissionDenied` whose message contains "path escapes the workspace".
   * Contract: refuses empty paths, NUL bytes and dangling symbolic links.
   */
  async resolve(path: string): Promise<string> {
    if (path === "") throw new TypeError(`Cannot access "": the path is empty`);
    if (path.includes("\0")) {
      throw new TypeError(`Cannot access ${JSON.stringify(path)}: the path contains a NUL byte`);
    }
    const lexical = normalize(path.startsWith("/") ? path : `${this.root}/${path}`);
    if (!this.#contains(lexical)) throw escapeError(path);
    let existing = lexical;
    const tail: string[] = [];
    while (!(await exists(existing))) {
      if (existing === this.root) {
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
    const resolved = tail.length === 0 ? real : `${real === "/" ? "" : real}/${tail.join("/")}`;
    if (!this.#contains(resolved)) throw escapeError(path);
    return resolved;
  }

  /**
   * The path of `absolute` relative to the root, for messages: `"."` for the
   * root itself, the input unchanged when it lies outside.
   */
  relative(absolute: string): string {
    if (absolute === this.root) return ".";
    const prefix = this.root === "/" ? "/" : `${this.root}/`;
    return absolute.startsWith(prefix) ? absolute.slice(prefix.length) : absolute;
  }

  #contains(absolute: string): boolean {
    if (this.root === "/" || absolute === this.root) return true;
    return absolute.startsWith(`${this.root}/`);
  }
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
