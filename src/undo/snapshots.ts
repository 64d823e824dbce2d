/**
 * The workspace's snapshots in the state directory: taking one, comparing two, and moving
 * the files from one snapshot to another without overwriting what changed meanwhile.
 *
 * @module
 */
import { type Hash, isHash, ObjectStore } from "./object_store.ts";
import type { Symlinker } from "./restore.ts";
import { type IsIgnored, Scanner } from "./scanner.ts";
import { type Change, diffSnapshots, TreeReader } from "./tree_diff.ts";
import { type Entry, parseSnapshot, sameContent, type Snapshot } from "./tree.ts";

/** Files larger than this are recorded without content (not restorable) by default. */
export const DEFAULT_SIZE_CAP = 10 * 1024 * 1024;

/** Where snapshots live and what they cover. */
export interface SnapshotsOptions {
  /** The state directory for snapshots (e.g. `.powercode/snapshots`), outside every root. */
  dir: string;
  /** The directories to snapshot, as they are accessed; default `["workspace"]`. */
  roots?: readonly string[];
  /** Paths left out (`.powercodeignore`); default: none. `.git` is always left out. */
  isIgnored?: IsIgnored;
  /** Files larger than this many bytes are not restorable (default 10 MiB). */
  sizeCap?: number;
  /** Creates symbolic links on restore; without it, links are reported not restorable. */
  symlink?: Symlinker;
}

/** How moving the files ended. */
export type MoveOutcome =
  | {
    type: "moved";
    /** The snapshot of the workspace just before the move (what a redo goes back to). */
    from: Hash;
    /** The snapshot just after it. */
    to: Hash;
    /** Paths written, removed, and left as they were for want of content. */
    restored: string[];
    removed: string[];
    notRestorable: string[];
  }
  /** Paths the move would overwrite that changed since the expected snapshot; nothing moved. */
  | { type: "conflict"; paths: string[] };

/** The file that names the last snapshot, so the next run's first scan compares with it. */
const LAST_FILE = "last";

/**
 * Snapshots of the roots, content-addressed under `options.dir`.
 * Contract: writes only below `options.dir` and, on `move`, the roots.
 */
export class Snapshots {
  #dir: string;
  #roots: readonly string[];
  #store: ObjectStore;
  #scanner: Scanner;
  #symlink: Symlinker | undefined;
  #started = false;

  /** Snapshots as `options` say; nothing is read or written until the first call. */
  constructor(options: SnapshotsOptions) {
    this.#dir = options.dir;
    this.#roots = options.roots ?? ["workspace"];
    this.#store = new ObjectStore(options.dir);
    this.#symlink = options.symlink;
    this.#scanner = new Scanner(this.#store, {
      roots: this.#roots,
      sizeCap: options.sizeCap ?? DEFAULT_SIZE_CAP,
      ...(options.isIgnored ? { isIgnored: options.isIgnored } : {}),
    });
  }

  /** Takes a snapshot of the roots now; returns its id. */
  async take(): Promise<Hash> {
    if (!this.#started) this.#continueFromLast();
    const { id } = await this.#scanner.scan();
    Deno.writeTextFileSync(`${this.#dir}/${LAST_FILE}`, `${id}\n`, { mode: 0o600 });
    return id;
  }

  /** The paths whose content differs from snapshot `a` to `b`. */
  changes(a: Hash, b: Hash): Change[] {
    const reader = new TreeReader(this.#store);
    return diffSnapshots(reader, this.#snapshot(a), this.#snapshot(b));
  }

  /**
   * Moves the files from snapshot `expected` (what powercode last left them as) to
   * `target`: only the paths that differ between the two are touched. A path among them
   * that changed since `expected` is a conflict: the move is refused unless `force`. Without
   * `expected` (unknown), every path that differs from now to `target` is moved.
   * Contract: the state just before and just after are snapshots, so nothing is lost.
   */
  async move(
    expected: Hash | undefined,
    target: Hash,
    options: { force: boolean },
  ): Promise<MoveOutcome> {
    const now = await this.take();
    const reader = new TreeReader(this.#store);
    const goal = this.#snapshot(target);
    const wanted = diffSnapshots(reader, this.#snapshot(expected ?? now), goal);
    const since = new Map(
      diffSnapshots(reader, this.#snapshot(expected ?? now), this.#snapshot(now))
        .map((change) => [key(change), change]),
    );
    // What the path holds now: as expected, unless it changed since.
    const currentOf = (change: Change) => {
      const changed = since.get(key(change));
      return changed ? changed.after : change.before;
    };
    const conflicts = wanted.filter((change) =>
      since.has(key(change)) && !sameContent(currentOf(change), change.after)
    );
    if (conflicts.length > 0 && !options.force) {
      return { type: "conflict", paths: conflicts.map((change) => this.display(change)) };
    }
    // Restoring loads only when a run moves the workspace (undo, redo, a tree jump).
    const { restore } = await import("./restore.ts");
    const done = await restore(
      wanted.filter((change) => !sameContent(currentOf(change), change.after)).map((change) => ({
        root: change.root,
        path: change.path,
        current: currentOf(change),
        target: change.after,
      })),
      {
        store: this.#store,
        symlink: this.#symlink,
        dirMode: (root, path) => modeOf(reader, goal, root, path),
      },
    );
    const show = (moves: { root: string; path: string }[]) => moves.map((m) => this.display(m));
    return {
      type: "moved",
      from: now,
      to: await this.take(),
      restored: show(done.restored),
      removed: show(done.removed),
      notRestorable: show(done.notRestorable),
    };
  }

  /** The bytes of file content `hash` of a snapshot (a preview's diff). Contract: throws when missing. */
  read(hash: Hash): Uint8Array {
    return this.#store.read(hash);
  }

  /** How a path is shown: below its root, prefixed by the root when there are several. */
  display(change: { root: string; path: string }): string {
    return this.#roots.length === 1 ? change.path : `${change.root}/${change.path}`;
  }

  #snapshot(id: Hash): Snapshot {
    return parseSnapshot(this.#store.readText(id), id);
  }

  /** The first scan of a run compares with the last snapshot any run took, when it is there. */
  #continueFromLast(): void {
    this.#started = true;
    // Private to the user, also when an older powercode made it readable: the objects are
    // copies of files whatever their modes.
    Deno.mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
    Deno.chmodSync(this.#dir, 0o700);
    try {
      const last = Deno.readTextFileSync(`${this.#dir}/${LAST_FILE}`).trim();
      if (isHash(last)) this.#scanner.usePrevious(last);
    } catch {
      // No last snapshot, or a damaged one: the first scan reads every file.
    }
  }
}

function key(change: { root: string; path: string }): string {
  return `${change.root}\0${change.path}`;
}

function modeOf(
  reader: TreeReader,
  goal: Snapshot,
  root: string,
  path: string,
): number | undefined {
  const tree = goal.roots.find((each) => each.dir === root)?.tree;
  const entry: Entry | undefined = tree === undefined ? undefined : reader.dirAt(tree, path);
  return entry?.kind === "dir" ? entry.mode : undefined;
}
