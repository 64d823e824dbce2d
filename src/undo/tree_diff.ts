/**
 * What differs between two snapshots, path by path. Trees with the same hash are equal
 * (their stat fields too) and are skipped whole, so comparing two snapshots of a large,
 * mostly unchanged workspace reads only the directories that changed.
 *
 * @module
 */
import type { Hash, ObjectStore } from "./object_store.ts";
import { type Entry, parseTree, sameContent, type Snapshot, type Tree } from "./tree.ts";

/** One path whose content differs: the entry in the first snapshot and in the second. */
export interface Change {
  /** The root, as the scan was given it. */
  root: string;
  /** The path below the root, `/`-separated. */
  path: string;
  before: Entry | undefined;
  after: Entry | undefined;
}

/** Reads tree objects, each parsed once. */
export class TreeReader {
  #store: ObjectStore;
  #cache = new Map<Hash, Tree>();

  /** A reader of `store`'s trees. */
  constructor(store: ObjectStore) {
    this.#store = store;
  }

  /** Tree `hash`. Contract: throws when it is missing or damaged. */
  tree(hash: Hash): Tree {
    let tree = this.#cache.get(hash);
    if (!tree) {
      tree = parseTree(this.#store.readText(hash), hash);
      this.#cache.set(hash, tree);
    }
    return tree;
  }

  /** The directory entry at `path` below tree `root`; undefined when there is none. */
  dirAt(root: Hash, path: string): Entry | undefined {
    let tree: Tree | undefined = this.tree(root);
    let entry: Entry | undefined;
    for (const name of path.split("/")) {
      entry = tree?.entries.find((each) => each.name === name);
      tree = entry?.kind === "dir" ? this.tree(entry.tree) : undefined;
    }
    return entry;
  }
}

/**
 * The paths whose content differs from `a` to `b` (kind, mode, bytes, link text), parents
 * before what they hold; a directory only one side has comes with everything below it.
 * Contract: only roots both snapshots have are compared: a root added or dropped since is
 * never reported as created or deleted whole.
 */
export function diffSnapshots(reader: TreeReader, a: Snapshot, b: Snapshot): Change[] {
  const changes: Change[] = [];
  for (const root of a.roots) {
    const other = b.roots.find((each) => each.dir === root.dir);
    if (other) diffTrees(reader, root.tree, other.tree, { root: root.dir, prefix: "", changes });
  }
  return changes;
}

interface Walk {
  root: string;
  prefix: string;
  changes: Change[];
}

function diffTrees(reader: TreeReader, a: Hash, b: Hash, walk: Walk): void {
  if (a === b) return;
  const before = new Map(reader.tree(a).entries.map((entry) => [entry.name, entry]));
  const after = new Map(reader.tree(b).entries.map((entry) => [entry.name, entry]));
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  for (const name of names) {
    const old = before.get(name);
    const now = after.get(name);
    const path = `${walk.prefix}${name}`;
    const below = { ...walk, prefix: `${path}/` };
    if (old?.kind === "dir" && now?.kind === "dir") {
      if (old.mode !== now.mode) {
        walk.changes.push({ root: walk.root, path, before: old, after: now });
      }
      diffTrees(reader, old.tree, now.tree, below);
      continue;
    }
    if (sameContent(old, now)) continue;
    walk.changes.push({ root: walk.root, path, before: old, after: now });
    if (old?.kind === "dir") expand(reader, old.tree, below, "before");
    if (now?.kind === "dir") expand(reader, now.tree, below, "after");
  }
}

/** Everything below a directory one side lacks, on side `side`. */
function expand(reader: TreeReader, hash: Hash, walk: Walk, side: "before" | "after"): void {
  for (const entry of reader.tree(hash).entries) {
    const path = `${walk.prefix}${entry.name}`;
    walk.changes.push({
      root: walk.root,
      path,
      before: side === "before" ? entry : undefined,
      after: side === "after" ? entry : undefined,
    });
    if (entry.kind === "dir") expand(reader, entry.tree, { ...walk, prefix: `${path}/` }, side);
  }
}
