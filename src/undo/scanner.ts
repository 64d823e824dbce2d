/**
 * Taking a snapshot: every regular file and symbolic link under the roots (`.git` and
 * ignored paths left out), each directory a tree object. A file whose size, mtime, ctime,
 * inode and mode match the previous snapshot's entry is trusted without being read, so a
 * scan of an unchanged tree costs one `lstat` per entry; only changed files are read,
 * hashed and stored.
 *
 * The walk is synchronous on purpose: one `lstatSync` costs a fraction of an awaited one,
 * and a scan runs between tasks, when nothing else is waiting.
 *
 * @module
 */
import type { Hash, ObjectStore } from "./object_store.ts";
import {
  type Entry,
  type FileEntry,
  parseSnapshot,
  parseTree,
  type Snapshot,
  type Stat,
  type Tree,
} from "./tree.ts";

/** Says whether a path below a root is left out of snapshots (`.powercodeignore`). */
export type IsIgnored = (root: string, path: string, isDirectory: boolean) => boolean;

/** What a scanner covers. */
export interface ScanOptions {
  /** The directories to snapshot, as they are accessed (e.g. `workspace`). */
  roots: readonly string[];
  /** Paths (relative to their root, `/`-separated) left out; default: none. */
  isIgnored?: IsIgnored;
  /** Files larger than this many bytes are recorded without their content. */
  sizeCap: number;
}

/** A snapshot taken: its id and content. */
export interface Taken {
  id: Hash;
  snapshot: Snapshot;
}

/**
 * An entry changed this close to the scan that recorded it may change again within the
 * same timestamp tick (ctime has whole seconds), so the next scan reads it again.
 */
const RACY_MS = 2000;

/** The directory git keeps its own state in: never snapshotted, never restored. */
const GIT_DIR = ".git";

/** Node's synchronous file API, for opening without blocking on a FIFO swapped in (loaded when first needed). */
let nodeFs: typeof import("node:fs") | undefined;

/**
 * Takes snapshots into a store, each compared with the one before.
 * Contract: never follows a symbolic link; never reads a FIFO, socket or device; a file
 * that vanishes during the scan is left out.
 */
export class Scanner {
  #store: ObjectStore;
  #options: ScanOptions;
  #previous: { snapshot: Snapshot; trees: Map<Hash, Tree> } | undefined;

  /** A scanner over `options.roots` storing into `store`. */
  constructor(store: ObjectStore, options: ScanOptions) {
    this.#store = store;
    this.#options = options;
  }

  /** Compares the next scan with snapshot `id` (say, the last one of an earlier run). */
  usePrevious(id: Hash): void {
    const snapshot = parseSnapshot(this.#store.readText(id), id);
    this.#previous = { snapshot, trees: new Map() };
  }

  /** Scans every root now and stores what changed; returns the snapshot. */
  async scan(): Promise<Taken> {
    const scanned = Date.now();
    const previous = this.#previous;
    const trees = new Map<Hash, Tree>();
    const walk = new Walk(this.#store, this.#options, previous, trees);
    const roots: Snapshot["roots"] = [];
    for (const [index, dir] of this.#options.roots.entries()) {
      const old = previous?.snapshot.roots[index];
      const tree = await walk.dir(dir, "", dir, old?.dir === dir ? old.tree : undefined);
      roots.push({ dir, tree });
    }
    const snapshot: Snapshot = { version: 1, scanned, sizeCap: this.#options.sizeCap, roots };
    const id = await this.#store.putText(JSON.stringify(snapshot));
    this.#previous = { snapshot, trees };
    return { id, snapshot };
  }
}

/** One scan's walk: the previous snapshot to compare with, and the trees it makes. */
class Walk {
  #trusted: number;

  constructor(
    readonly store: ObjectStore,
    readonly options: ScanOptions,
    readonly previous: { snapshot: Snapshot; trees: Map<Hash, Tree> } | undefined,
    readonly trees: Map<Hash, Tree>,
  ) {
    this.#trusted = (previous?.snapshot.scanned ?? 0) - RACY_MS;
  }

  /** Snapshots directory `path` (`rel` below `root`); returns its tree's hash. */
  async dir(path: string, rel: string, root: string, old: Hash | undefined): Promise<Hash> {
    const before = old === undefined ? undefined : this.#tree(old);
    const byName = new Map(before?.entries.map((entry) => [entry.name, entry]));
    const entries: Entry[] = [];
    for (const item of listDir(path, rel, root, this.options.isIgnored)) {
      const full = `${path}/${item.name}`;
      const info = lstatOrUndefined(full);
      if (!info) continue;
      const previous = byName.get(item.name);
      if (info.isDirectory) {
        const below = rel === "" ? item.name : `${rel}/${item.name}`;
        const tree = await this.dir(
          full,
          below,
          root,
          previous?.kind === "dir" ? previous.tree : undefined,
        );
        entries.push({ kind: "dir", name: item.name, mode: modeOf(info), tree });
      } else if (info.isSymlink) {
        const target = readLinkOrUndefined(full);
        if (target !== undefined) {
          entries.push({ kind: "link", name: item.name, ...statOf(info), target });
        }
      } else if (info.isFile) {
        entries.push(await this.#file(full, item.name, info, previous));
      }
    }
    if (old !== undefined && before && sameEntries(before.entries, entries)) {
      this.trees.set(old, before);
      return old;
    }
    const tree: Tree = { entries };
    const hash = await this.store.putText(JSON.stringify(tree));
    this.trees.set(hash, tree);
    return hash;
  }

  async #file(
    path: string,
    name: string,
    info: Deno.FileInfo,
    previous: Entry | undefined,
  ): Promise<FileEntry> {
    const stat = statOf(info);
    const mode = modeOf(info);
    if (
      previous?.kind === "file" && previous.mode === mode && sameStat(previous, stat) &&
      previous.mtime < this.#trusted && previous.ctime < this.#trusted &&
      (previous.hash !== null || stat.size > this.options.sizeCap)
    ) {
      return previous;
    }
    // Loaded with the first file read: an unchanged tree needs none, and it costs ~30 ms.
    if (stat.size <= this.options.sizeCap) nodeFs ??= await import("node:fs");
    const bytes = stat.size > this.options.sizeCap
      ? undefined
      : readRegular(path, this.options.sizeCap);
    const hash = bytes === undefined ? null : await this.store.put(bytes);
    return { kind: "file", name, mode, ...stat, hash };
  }

  #tree(hash: Hash): Tree {
    const known = this.previous?.trees.get(hash) ?? this.trees.get(hash);
    return known ?? parseTree(this.store.readText(hash), hash);
  }
}

/** The names in directory `path` to snapshot, sorted: `.git` and ignored ones left out. */
function listDir(
  path: string,
  rel: string,
  root: string,
  isIgnored: IsIgnored | undefined,
): Deno.DirEntry[] {
  const items: Deno.DirEntry[] = [];
  try {
    for (const item of Deno.readDirSync(path)) {
      if (item.name === GIT_DIR) continue;
      const below = rel === "" ? item.name : `${rel}/${item.name}`;
      if (isIgnored?.(root, below, item.isDirectory)) continue;
      items.push(item);
    }
  } catch (error) {
    // A directory that vanished or cannot be listed holds nothing restorable.
    if (rel === "" && error instanceof Deno.errors.NotFound) throw error;
    return [];
  }
  return items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The bytes of the regular file at `path`, opened without following a link or blocking;
 * undefined when it is not a regular file (any more), is larger than `cap`, or unreadable.
 */
function readRegular(path: string, cap: number): Uint8Array<ArrayBuffer> | undefined {
  const fs = nodeFs!;
  const { O_RDONLY, O_NONBLOCK, O_NOFOLLOW, O_NOCTTY } = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY);
  } catch {
    return undefined;
  }
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile() || stats.size > cap) return undefined;
    const bytes = fs.readFileSync(fd);
    return bytes.length > cap
      ? undefined
      : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

function lstatOrUndefined(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch {
    return undefined;
  }
}

function readLinkOrUndefined(path: string): string | undefined {
  try {
    return Deno.readLinkSync(path);
  } catch {
    return undefined;
  }
}

/** The stat fields an entry keeps. */
export function statOf(info: Deno.FileInfo): Stat {
  return {
    size: info.size,
    mtime: info.mtime?.getTime() ?? 0,
    ctime: info.ctime?.getTime() ?? 0,
    ino: info.ino ?? 0,
  };
}

function modeOf(info: Deno.FileInfo): number {
  return (info.mode ?? 0o644) & 0o7777;
}

function sameStat(a: Stat, b: Stat): boolean {
  return a.size === b.size && a.mtime === b.mtime && a.ctime === b.ctime && a.ino === b.ino;
}

function sameEntries(a: readonly Entry[], b: readonly Entry[]): boolean {
  return a.length === b.length && a.every((entry, index) => sameEntry(entry, b[index]!));
}

function sameEntry(a: Entry, b: Entry): boolean {
  if (a === b) return true;
  const keys = Object.keys(a) as (keyof Entry)[];
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
