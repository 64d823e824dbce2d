/**
 * Putting paths back as a snapshot has them: removals first (files and links, then emptied
 * directories, deepest first), then directories, files and links, parents first. A file is
 * written beside its place and renamed over it, with its mode and mtime; a path is touched
 * only through directories checked to be real ones, so a link swapped in for a directory
 * never leads a restore outside the root.
 *
 * @module
 */
import type { Hash, ObjectStore } from "./object_store.ts";
import type { Entry } from "./tree.ts";

/** One path to move from what it is now (`current`) to what it should be (`target`). */
export interface Move {
  root: string;
  path: string;
  current: Entry | undefined;
  target: Entry | undefined;
}

/**
 * Makes `path` (below `root`) a symbolic link to `target`, replacing a link that is there.
 * Contract: when it fails, a link that was there is still there.
 * Deno creates links only with unscoped permissions, so the assembly passes one that runs
 * `ln` where the bash tool runs.
 */
export type Symlinker = (root: string, path: string, target: string) => Promise<void>;

/** What a restore did, as paths below their roots. */
export interface Restored {
  /** Files and links written (created or put back). */
  restored: Move[];
  /** Files and links removed. */
  removed: Move[];
  /**
   * Paths left as they were: no content recorded (over the size cap, unreadable), or a link
   * that could not be made.
   */
  notRestorable: Move[];
}

/** What a restore works with. */
export interface RestoreContext {
  store: ObjectStore;
  symlink?: Symlinker | undefined;
  /** The mode of a directory of the target snapshot, for parents created on the way. */
  dirMode: (root: string, path: string) => number | undefined;
}

/**
 * Applies `moves`.
 * Contract: a path whose target cannot be made (a file recorded without content, a link
 * with no `symlink`) is left as it is and reported. Throws an Error naming the path when one
 * cannot be put back (a directory that is not empty where a file must go, a link where a
 * directory must be, a disk error); what was done before stays done.
 */
export async function restore(moves: readonly Move[], context: RestoreContext): Promise<Restored> {
  return await new Restorer(context).run(moves);
}

/** One restore: the directories checked so far and the modes to set at the end. */
class Restorer {
  #context: RestoreContext;
  #checked = new Set<string>();
  #modes: { full: string; mode: number }[] = [];

  constructor(context: RestoreContext) {
    this.#context = context;
  }

  async run(moves: readonly Move[]): Promise<Restored> {
    const done: Restored = { restored: [], removed: [], notRestorable: [] };
    const possible = moves.filter((move) => {
      const { target } = move;
      const impossible = (target?.kind === "file" && target.hash === null) ||
        (target?.kind === "link" && !this.#context.symlink);
      if (impossible) done.notRestorable.push(move);
      return !impossible;
    });
    // A link to replace stays until its successor is made: `symlink` replaces it.
    const leaving = possible.filter((move) =>
      move.current && move.target?.kind !== move.current.kind
    );
    for (const move of leaving.filter((move) => move.current?.kind !== "dir")) {
      await Deno.remove(this.#place(move));
      if (move.target === undefined) done.removed.push(move);
    }
    for (const move of byDepth(leaving.filter((move) => move.current?.kind === "dir")).reverse()) {
      removeEmptyDir(this.#place(move));
    }
    for (const move of byDepth(possible.filter((move) => move.target !== undefined))) {
      const put = await this.#put(move, move.target!);
      if (put === "failed") done.notRestorable.push(move);
      else if (put === "written") done.restored.push(move);
    }
    // Last and deepest first: a read-only directory takes no new entries.
    for (const { full, mode } of this.#modes.reverse()) Deno.chmodSync(full, mode);
    return done;
  }

  /**
   * Makes `move`'s path hold `target`: a file or link `written`, a directory `made`, or a
   * link whose creation `failed` (the sandbox refused it, say with the workspace read-only).
   */
  async #put(move: Move, target: Entry): Promise<"written" | "made" | "failed"> {
    const full = this.#place(move);
    switch (target.kind) {
      case "dir":
        if (move.current?.kind !== "dir") Deno.mkdirSync(full);
        this.#checked.add(full);
        this.#modes.push({ full, mode: target.mode });
        return "made";
      case "file":
        writeFile(full, this.#context.store, { ...target, hash: target.hash! });
        return "written";
      case "link":
        try {
          await this.#context.symlink!(move.root, move.path, target.target);
          return "written";
        } catch {
          return "failed";
        }
      default: {
        const unknown: never = target;
        throw new TypeError(`Cannot restore: unknown entry ${JSON.stringify(unknown)}`);
      }
    }
  }

  /**
   * The full path of `move`, after making sure every directory above it below the root is
   * a real directory (creating missing ones, their mode set at the end).
   */
  #place(move: Move): string {
    const names = move.path.split("/");
    let dir = move.root;
    for (const [index, name] of names.slice(0, -1).entries()) {
      dir = `${dir}/${name}`;
      if (this.#checked.has(dir)) continue;
      const info = lstatOrUndefined(dir);
      if (info === undefined) {
        Deno.mkdirSync(dir);
        const mode = this.#context.dirMode(move.root, names.slice(0, index + 1).join("/"));
        if (mode !== undefined) this.#modes.push({ full: dir, mode });
      } else if (!info.isDirectory) {
        const what = info.isSymlink ? "a symbolic link" : "not a directory";
        throw new Error(
          `Cannot restore "${move.path}": "${dir}" is ${what}; move it away and retry`,
        );
      }
      this.#checked.add(dir);
    }
    return `${dir}/${names.at(-1)}`;
  }
}

/** Moves sorted parents first. */
function byDepth(moves: Move[]): Move[] {
  const depth = (move: Move) => move.path.split("/").length;
  return [...moves].sort((a, b) => depth(a) - depth(b) || (a.path < b.path ? -1 : 1));
}

function removeEmptyDir(full: string): void {
  try {
    Deno.removeSync(full);
  } catch (error) {
    // Files the snapshots leave out (ignored, over the cap, created since) keep it.
    if (error instanceof Deno.errors.NotFound) return;
    if (!(error instanceof Error && /not empty/i.test(error.message))) throw error;
  }
}

/** Writes object `hash` to `full` through a temp file, with the entry's mode and mtime. */
function writeFile(
  full: string,
  store: ObjectStore,
  entry: { hash: Hash; mode: number; mtime: number },
): void {
  const bytes = store.read(entry.hash);
  const temp = `${full.slice(0, full.lastIndexOf("/"))}/.pc-undo-${crypto.randomUUID()}.tmp`;
  try {
    Deno.writeFileSync(temp, bytes, { createNew: true, mode: 0o600 });
    Deno.chmodSync(temp, entry.mode);
    const mtime = new Date(entry.mtime);
    Deno.utimeSync(temp, mtime, mtime);
    Deno.renameSync(temp, full);
  } catch (error) {
    try {
      Deno.removeSync(temp);
    } catch {
      // never written
    }
    throw error;
  }
}

function lstatOrUndefined(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}
