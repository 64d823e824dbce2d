/**
 * What a snapshot is made of: one tree object per directory (its entries, sorted by name,
 * each file naming the object that holds its bytes) and a snapshot object naming the tree of
 * each root. The stat fields (size, mtime, ctime, inode) let the next scan trust an entry
 * without reading the file.
 *
 * @module
 */
import { hasShape, isCount, isObject, isString, type Shape } from "../core/mod.ts";
import { type Hash, isHash } from "./object_store.ts";

/** What the next scan compares to trust a file without reading it. */
export interface Stat {
  size: number;
  /** Milliseconds since the epoch. */
  mtime: number;
  /** Milliseconds since the epoch (Deno reports whole seconds). */
  ctime: number;
  ino: number;
}

/** A regular file; `hash` null: not restorable (over the size cap, or unreadable). */
export interface FileEntry extends Stat {
  kind: "file";
  name: string;
  /** Permission bits (`mode & 0o7777`). */
  mode: number;
  hash: Hash | null;
}

/** A symbolic link, restored as a link to the same text. */
export interface LinkEntry extends Stat {
  kind: "link";
  name: string;
  target: string;
}

/** A directory and the tree object of what it holds. */
export interface DirEntry {
  kind: "dir";
  name: string;
  mode: number;
  tree: Hash;
}

/** One entry of a directory. */
export type Entry = FileEntry | LinkEntry | DirEntry;

/** A directory's entries, sorted by name. */
export interface Tree {
  entries: Entry[];
}

/** The root of one snapshot. */
export interface Snapshot {
  version: 1;
  /** When the scan started (ms since the epoch): entries changed close to it are re-read next time. */
  scanned: number;
  /** Files larger than this many bytes were recorded without their content. */
  sizeCap: number;
  /** Each root as the scan was given it, with its tree. */
  roots: { dir: string; tree: Hash }[];
}

const STAT: Shape = { size: isCount, mtime: isCount, ctime: isCount, ino: isCount };
const SHAPES = new Map<unknown, Shape>([
  ["file", { ...STAT, name: isName, mode: isCount, hash: (v) => v === null || isHash(v) }],
  ["link", { ...STAT, name: isName, target: isString }],
  ["dir", { name: isName, mode: isCount, tree: isHash }],
]);

/**
 * The tree in `text` (a tree object).
 * Contract: throws a SyntaxError naming `hash` when the object is not a valid tree; names
 * that could leave their directory (`..`, `/`, empty) are never valid.
 */
export function parseTree(text: string, hash: Hash): Tree {
  const value: unknown = JSON.parse(text);
  if (
    !isObject(value) || !Array.isArray(value.entries) ||
    !value.entries.every((entry) => isObject(entry) && hasShape(entry, SHAPES.get(entry.kind)))
  ) {
    throw new SyntaxError(`Cannot read snapshot tree "${hash}": it is damaged`);
  }
  return value as unknown as Tree;
}

/**
 * The snapshot in `text` (a snapshot object).
 * Contract: throws a SyntaxError naming `hash` when the object is not a valid snapshot.
 */
export function parseSnapshot(text: string, hash: Hash): Snapshot {
  const value: unknown = JSON.parse(text);
  const valid = isObject(value) && value.version === 1 && isCount(value.scanned) &&
    isCount(value.sizeCap) && Array.isArray(value.roots) &&
    value.roots.every((root) => hasShape(root, { dir: isString, tree: isHash }));
  if (!valid) throw new SyntaxError(`Cannot read snapshot "${hash}": it is damaged`);
  return value as unknown as Snapshot;
}

/** Whether two entries hold the same thing: kind, mode and content (stat fields aside). */
export function sameContent(a: Entry | undefined, b: Entry | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  switch (a.kind) {
    case "file":
      if (b.kind !== "file" || a.mode !== b.mode) return false;
      // Without content, only the same stat says it is the same file.
      return a.hash !== null && b.hash !== null ? a.hash === b.hash : a.hash === b.hash &&
        a.size === b.size && a.mtime === b.mtime && a.ino === b.ino;
    case "link":
      return b.kind === "link" && a.target === b.target;
    case "dir":
      return b.kind === "dir" && a.mode === b.mode;
    default: {
      const unknown: never = a;
      throw new TypeError(`Cannot compare entry: unknown kind ${JSON.stringify(unknown)}`);
    }
  }
}

function isName(value: unknown): boolean {
  return isString(value) && value !== "" && value !== "." && value !== ".." &&
    !value.includes("/") && !value.includes("\0");
}
