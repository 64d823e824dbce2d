/**
 * Putting paths back as a snapshot has them: removals first (files and links, then emptied
 * directories, deepest first), then directories, files and links, parents first. A file is
 * staged in the state directory with its mode and mtime, then moved beside its place and
 * renamed over it. Every write is made by {@linkcode PinnedShell} from inside the directory
 * it concerns, entered name by name and checked to be the child of the one before, so a link
 * swapped in for a directory, even during the restore, never leads a write outside the root.
 * Set-uid, set-gid and sticky bits are never restored.
 *
 * @module
 */
import type { Hash, ObjectStore } from "./object_store.ts";
import { PinnedShell } from "./pinned_shell.ts";
import type { Entry } from "./tree.ts";

/** The permission bits a restore sets: never set-uid, set-gid or sticky. */
const MODE_BITS = 0o777;

/** Where restores stage files, below the store's directory (each in a folder of its own). */
const STAGING_DIR = "restoring";

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

/** An entry of a directory below a root, as the shell reaches it. */
interface Place {
  root: string;
  names: string[];
  name: string;
}

/** One restore: its shell, the directories checked so far and the modes to set at the end. */
class Restorer {
  #context: RestoreContext;
  #shell = new PinnedShell();
  #realRoots = new Map<string, string>();
  #checked = new Set<string>();
  #modes: { root: string; names: string[]; mode: number }[] = [];
  #staging: string;

  constructor(context: RestoreContext) {
    this.#context = context;
    // Absolute: the shell works in other directories.
    const dir = context.store.dir.startsWith("/")
      ? context.store.dir
      : `${Deno.cwd()}/${context.store.dir}`;
    this.#staging = `${dir}/${STAGING_DIR}/${crypto.randomUUID()}`;
  }

  async run(moves: readonly Move[]): Promise<Restored> {
    try {
      return await this.#run(moves);
    } finally {
      await this.#shell.close();
      // Staged copies of files that could not be put in place.
      try {
        Deno.removeSync(this.#staging, { recursive: true });
      } catch {
        // nothing was staged
      }
    }
  }

  async #run(moves: readonly Move[]): Promise<Restored> {
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
      await this.#do(move, "unlink", await this.#place(move));
      if (move.target === undefined) done.removed.push(move);
    }
    for (const move of byDepth(leaving.filter((move) => move.current?.kind === "dir")).reverse()) {
      await this.#removeEmptyDir(move);
    }
    for (const move of byDepth(possible.filter((move) => move.target !== undefined))) {
      const put = await this.#put(move, move.target!);
      if (put === "failed") done.notRestorable.push(move);
      else if (put === "written") done.restored.push(move);
    }
    // Last and deepest first: a read-only directory takes no new entries.
    for (const { root, names, mode } of this.#modes.reverse()) {
      await this.#shell.run("chmod", { root, names, name: ".", arg: octal(mode) });
    }
    return done;
  }

  /**
   * Makes `move`'s path hold `target`: a file or link `written`, a directory `made`, or a
   * link whose creation `failed` (the sandbox refused it, say with the workspace read-only).
   */
  async #put(move: Move, target: Entry): Promise<"written" | "made" | "failed"> {
    const place = await this.#place(move);
    switch (target.kind) {
      case "dir":
        if (move.current?.kind !== "dir") await this.#do(move, "mkdir", place);
        this.#checked.add(`${move.root}/${move.path}`);
        this.#modes.push({
          root: place.root,
          names: [...place.names, place.name],
          mode: target.mode,
        });
        return "made";
      case "file":
        await this.#do(move, "place", {
          ...place,
          arg: this.#stage({ ...target, hash: target.hash! }),
        });
        return "written";
      case "link":
        try {
          // The sandbox binds only the roots writable: a link there leads nowhere else.
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
   * Where `move`'s path is, after making sure every directory above it below the root is
   * a directory (creating missing ones, their mode set at the end). The shell checks each
   * again when it enters it; this check is for the message.
   */
  async #place(move: Move): Promise<Place> {
    const root = this.#realRoot(move.root);
    const names = move.path.split("/");
    const name = names.pop()!;
    for (const [index, dirName] of names.entries()) {
      const above = names.slice(0, index);
      const rel = [...above, dirName].join("/");
      const dir = `${move.root}/${rel}`;
      if (this.#checked.has(dir)) continue;
      const info = lstatOrUndefined(dir);
      if (info === undefined) {
        await this.#do(move, "mkdir", { root, names: above, name: dirName });
        const mode = this.#context.dirMode(move.root, rel);
        if (mode !== undefined) this.#modes.push({ root, names: [...above, dirName], mode });
      } else if (!info.isDirectory) {
        const what = info.isSymlink ? "a symbolic link" : "not a directory";
        throw new Error(
          `Cannot restore "${move.path}": "${move.root}/${rel}" is ${what}; move it away and retry`,
        );
      }
      this.#checked.add(dir);
    }
    return { root, names, name };
  }

  async #removeEmptyDir(move: Move): Promise<void> {
    try {
      await this.#shell.run("rmdir", await this.#place(move));
    } catch (error) {
      // Files the snapshots leave out (ignored, over the cap, created since) keep it.
      if (error instanceof Error && /not empty|No such file/i.test(error.message)) return;
      throw new Error(`Cannot restore "${move.path}": ${(error as Error).message}`);
    }
  }

  async #do(
    move: Move,
    op: "mkdir" | "unlink" | "place",
    where: Place & { arg?: string },
  ): Promise<void> {
    try {
      await this.#shell.run(op, where);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`Cannot restore "${move.path}": ${reason}`);
    }
  }

  /** A copy of object `hash` in the staging directory, with the entry's mode and mtime. */
  #stage(entry: { hash: Hash; mode: number; mtime: number }): string {
    Deno.mkdirSync(this.#staging, { recursive: true, mode: 0o700 });
    const staged = `${this.#staging}/${crypto.randomUUID()}`;
    Deno.writeFileSync(staged, this.#context.store.read(entry.hash), {
      createNew: true,
      mode: 0o600,
    });
    Deno.chmodSync(staged, entry.mode & MODE_BITS);
    const mtime = new Date(entry.mtime);
    Deno.utimeSync(staged, mtime, mtime);
    return staged;
  }

  #realRoot(root: string): string {
    let real = this.#realRoots.get(root);
    if (real === undefined) {
      real = Deno.realPathSync(root);
      this.#realRoots.set(root, real);
    }
    return real;
  }
}

function octal(mode: number): string {
  return (mode & MODE_BITS).toString(8);
}

/** Moves sorted parents first. */
function byDepth(moves: Move[]): Move[] {
  const depth = (move: Move) => move.path.split("/").length;
  return [...moves].sort((a, b) => depth(a) - depth(b) || (a.path < b.path ? -1 : 1));
}

function lstatOrUndefined(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}
