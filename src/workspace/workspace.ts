/**
 * The workspace: the one directory the agent's tools may touch, and the single
 * place where a path from the model becomes an absolute path on disk.
 *
 * @module
 */
import { refuseSpecialFile } from "./file_kind.ts";
import { type GitControl, refuseGitWrite } from "./git_control.ts";
import { IGNORE_FILE, loadIgnoreRules } from "./ignore_file.ts";
import type { IgnoreRules } from "./ignore_rules.ts";
import { formatSize } from "../core/mod.ts";

/** Largest file edit_file changes and largest content the file tools write (10 MB). */
export const MAX_EDIT_BYTES = 10 * 1024 * 1024;

/** Where a write goes once every guard passed, and what exists there now. */
export interface WriteTarget {
  /** The path to write, as {@linkcode Workspace.resolve} returns it. */
  absolute: string;
  /** The entry at the path (a regular file or a directory), or undefined when there is none. */
  existing: Deno.FileInfo | undefined;
}

/** One root directory: its real path, and the absolute path it was opened by. */
/** One root of the workspace: the path it was opened by, and its real path. */
export interface Root {
  /** The real (symlink-free) absolute path. */
  readonly real: string;
  /** The absolute path it was opened by: what Deno's permissions cover. */
  readonly access: string;
}

/**
 * A workspace: a directory, possibly reached through a symbolic link (`workspace/` pointing
 * at the user's project), whose real (symlink-free) path is its root, and the further
 * roots a project adds (`--add-dir`), each confined the same way.
 *
 * Contract: every path a tool touches comes from {@linkcode Workspace.resolve},
 * which refuses `..` escapes, absolute paths outside every root, symbolic links
 * leading outside and dangling symbolic links, and paths `.powercodeignore` at the first
 * root ignores.
 * Contract: needs read permission on the directory as it was named only (Deno checks
 * permissions on the path it is given, so the returned paths go through that name,
 * never through the real root); it never reads or stats anything outside.
 * Limit: the check and the later file operation are not atomic; a process
 * swapping a directory for a symlink in between is not detected. Hard links
 * cannot be told apart from ordinary files.
 */
export class Workspace {
  /** The real absolute path of the workspace directory (the first root). */
  readonly root: string;
  /** Whether the file tools may write git's directories (see {@linkcode resolveWrite}). */
  readonly gitControl: GitControl;
  /** The rules of `.powercodeignore` at the first root (none when there is no such file). */
  readonly ignore: IgnoreRules;
  /** The absolute path the directory was opened by; file operations go through it. */
  readonly #access: string;
  /** Paths below the first root that only the user edits (the project's settings). */
  readonly #protected: readonly string[];
  /** Every root, the first one first. */
  readonly #roots: readonly [Root, ...Root[]];

  private constructor(
    roots: readonly Root[],
    gitControl: GitControl,
    ignore: IgnoreRules,
    protectedPaths: readonly string[] = [],
  ) {
    const [first, ...more] = roots;
    if (first === undefined) throw new TypeError("Cannot open a workspace without a directory");
    this.root = first.real;
    this.#access = first.access;
    this.#roots = [first, ...more];
    this.gitControl = gitControl;
    this.ignore = ignore;
    this.#protected = protectedPaths;
  }

  /**
   * The absolute path the workspace was opened by (the link itself when `workspace/` is a
   * symbolic link): the path to give anything that goes through Deno's permission checks.
   */
  get path(): string {
    return this.#access;
  }

  /** Every root, the first (the working directory) first: never empty. */
  get roots(): readonly [Root, ...Root[]] {
    return this.#roots;
  }

  /** The real paths of the roots after the first (`--add-dir`). */
  get moreRoots(): string[] {
    return this.#roots.slice(1).map((root) => root.real);
  }

  /**
   * Opens the workspace at `dir` (relative to the current directory or absolute), with the
   * further roots `options.moreDirs`; git's directories are `protected` unless
   * `options.gitControl` says otherwise. Reads `.powercodeignore` at `dir`.
   * Contract: throws `Deno.errors.NotFound` naming the directory when one is
   * missing, `TypeError` when one is not a directory, and what {@linkcode loadIgnoreRules}
   * throws for a bad ignore file.
   */
  static async open(
    dir: string,
    options: {
      gitControl?: GitControl;
      moreDirs?: readonly string[];
      /** Paths below `dir` the tools may neither read nor write (`.powercode/settings.json`). */
      protect?: readonly string[];
    } = {},
  ): Promise<Workspace> {
    const roots = [];
    for (const each of [dir, ...options.moreDirs ?? []]) roots.push(await openRoot(each));
    const ignore = await loadIgnoreRules(roots[0]?.access ?? dir);
    return new Workspace(roots, options.gitControl ?? "protected", ignore, options.protect);
  }

  /**
   * Turns a path from the model into the absolute path to access it by.
   * Relative paths are taken from the first root; absolute paths must lie inside a root (by
   * its real path or by the path it was opened by).
   * Existing symbolic links on the way are resolved, the missing tail is kept.
   * Contract: the result's real path is inside a root (or a root itself); the result
   * itself starts with the path that root was opened by, so Deno's permissions for
   * that path cover it. Otherwise throws a `PermissionDenied` whose message contains
   * "path escapes the workspace".
   * Contract: refuses empty paths, NUL bytes and dangling symbolic links, and, with a
   * `PermissionDenied` ending in "is ignored by .powercodeignore", a path the first root's
   * ignore rules ignore by the name given or by its real path.
   */
  async resolve(path: string): Promise<string> {
    if (path === "") throw new TypeError(`Cannot access "": the path is empty`);
    if (path.includes("\0")) {
      throw new TypeError(`Cannot access ${JSON.stringify(path)}: the path contains a NUL byte`);
    }
    const lexical = normalize(path.startsWith("/") ? path : `${this.#access}/${path}`);
    const named = this.#locate(lexical, "lexical");
    if (named === undefined) throw escapeError(path);
    this.#refuseIgnored(path, lexical, undefined);
    this.#refuseProtected(path, lexical);
    let existing = `${named.root.access}${named.below}`;
    const tail: string[] = [];
    while (!(await exists(existing))) {
      if (existing === named.root.access) {
        throw new Deno.errors.NotFound(
          `Cannot access "${path}": the workspace "${named.root.real}" no longer exists`,
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
    const target = this.#locate(real, "real");
    if (target === undefined) throw escapeError(path);
    const resolved = `${target.root.access}${target.below}`;
    const result = tail.length === 0
      ? resolved
      : `${resolved === "/" ? "" : resolved}/${tail.join("/")}`;
    this.#refuseProtected(path, tail.length === 0 ? real : `${real}/${tail.join("/")}`);
    if (this.ignore.size > 0) {
      const isDirectory = tail.length === 0 && (await Deno.stat(resolved)).isDirectory;
      this.#refuseIgnored(path, tail.length === 0 ? real : `${real}/${tail.join("/")}`, {
        isDirectory,
      });
    }
    return result;
  }

  /** The root holding `path` (by real path, or also by opened path), and the part below it. */
  #locate(path: string, by: "lexical" | "real"): { root: Root; below: string } | undefined {
    for (const root of this.#roots) {
      const below = (by === "lexical" ? within(root.access, path) : undefined) ??
        within(root.real, path);
      if (below !== undefined) return { root, below };
    }
    return undefined;
  }

  /** Throws when `absolute` lies in the first root and its ignore rules ignore it. */
  #refuseIgnored(
    path: string,
    absolute: string,
    options: { isDirectory: boolean } | undefined,
  ): void {
    if (this.ignore.size === 0) return;
    const below = within(this.#access, absolute) ?? within(this.root, absolute);
    if (below === undefined || below === "") return;
    // Before the entry is looked at, only its parents can be known to be directories.
    const matched = this.ignore.match(below.slice(1), options?.isDirectory ?? false);
    if (matched === undefined) return;
    throw new Deno.errors.PermissionDenied(
      `Cannot access "${path}": "${matched}" is ignored by ${IGNORE_FILE}`,
    );
  }

  /** Throws when `absolute` is a protected path of the first root (or lies inside one). */
  #refuseProtected(path: string, absolute: string): void {
    const below = within(this.#access, absolute) ?? within(this.root, absolute);
    if (below === undefined) return;
    const hit = this.#protected.find((entry) =>
      below === `/${entry}` || below.startsWith(`/${entry}/`)
    );
    if (hit === undefined) return;
    throw new Deno.errors.PermissionDenied(
      `Cannot access "${path}": "${hit}" holds the project's settings, which only the user ` +
        "reads and edits",
    );
  }

  /**
   * Resolves `path` for a write of `bytes` new bytes (when known) through every guard of the
   * file tools, in this order: the size, the escapes {@linkcode resolve} refuses, git's
   * control files, and what exists at the path.
   * Contract: throws an Error whose message starts with `Cannot <action> "<path>":` (for git's
   * files `Cannot change "<path>":`) when `bytes` exceed {@linkcode MAX_EDIT_BYTES}, the path
   * escapes, it goes through a `.git` or into a git directory of a root (or would make one)
   * while `gitControl` is `protected` (see `refuseGitWrite`), it is the first root's
   * `.powercodeignore`, or it is a FIFO, socket or device node. A directory is the caller's to
   * refuse.
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
    const located = this.#locate(absolute, "lexical");
    const below = located?.below.slice(1) ?? absolute;
    if (this.gitControl === "protected" && located !== undefined) {
      await refuseGitWrite(located.root.access, below, path);
    }
    if (located?.root === this.#roots[0] && below === IGNORE_FILE) {
      throw new Deno.errors.PermissionDenied(
        `Cannot change "${path}": it decides what the tools may see, so only the user edits it`,
      );
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

/**
 * Opens one root at `dir`.
 * Contract: needs read permission on `dir` as named only (Deno checks permissions on the
 * path it is given).
 */
async function openRoot(dir: string): Promise<Root> {
  let real: string;
  try {
    real = await Deno.realPath(dir);
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
  return { real, access: normalize(dir.startsWith("/") ? dir : `${Deno.cwd()}/${dir}`) };
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
