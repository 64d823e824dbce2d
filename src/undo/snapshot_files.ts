/**
 * What a snapshot holds, path by path: the files, links and directories of its first root,
 * with each file's content hash, and what changed between two snapshots. A bundle of a
 * session reads the workspace it started from and the tree after each task through it.
 *
 * @module
 */
import { type Hash, ObjectStore } from "./object_store.ts";
import { TreeReader } from "./tree_diff.ts";
import { parseSnapshot } from "./tree.ts";

/** One path of a snapshot, below its first root. */
export type SnapshotPath =
  | { kind: "dir"; path: string; mode: number }
  | { kind: "file"; path: string; mode: number; hash: Hash | null }
  | { kind: "link"; path: string; target: string };

/** A snapshot store opened for reading. */
export class SnapshotFiles {
  #store: ObjectStore;
  #reader: TreeReader;

  /** The snapshots in `dir` (the state directory's `snapshots/`). */
  constructor(dir: string) {
    this.#store = new ObjectStore(dir);
    this.#reader = new TreeReader(this.#store);
  }

  /**
   * Every path of snapshot `id`'s first root, parents before what they hold, sorted.
   * Contract: throws when the snapshot or one of its trees is missing or damaged.
   */
  list(id: Hash): SnapshotPath[] {
    const snapshot = parseSnapshot(this.#store.readText(id), id);
    const root = snapshot.roots[0];
    const paths: SnapshotPath[] = [];
    if (root !== undefined) this.#walk(root.tree, "", paths);
    return paths;
  }

  /** The bytes of file content `hash`. Contract: throws when it is missing. */
  read(hash: Hash): Uint8Array {
    return this.#store.read(hash);
  }

  #walk(tree: Hash, prefix: string, paths: SnapshotPath[]): void {
    for (const entry of this.#reader.tree(tree).entries) {
      const path = `${prefix}${entry.name}`;
      switch (entry.kind) {
        case "dir":
          paths.push({ kind: "dir", path, mode: entry.mode });
          this.#walk(entry.tree, `${path}/`, paths);
          break;
        case "file":
          paths.push({ kind: "file", path, mode: entry.mode, hash: entry.hash });
          break;
        case "link":
          paths.push({ kind: "link", path, target: entry.target });
          break;
        default: {
          const unknown: never = entry;
          throw new TypeError(`Cannot list entry: unknown kind ${JSON.stringify(unknown)}`);
        }
      }
    }
  }
}
