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

/** A directory of the walk: its path and identity when it was entered. */
interface Held {
  path: string;
  dev: number;
  ino: number;
}

/**
 * Takes snapshots into a store, each compared with the one before.
 * Contract: never follows a symbolic link; never reads a FIFO, socket or device; a file
 * that vanishes during the scan is left out. A file is kept only when the file opened is
 * the one `lstat` saw and every directory above it (up to the root) is still the directory
 * the walk entered, checked before the open and after the read; a directory is listed only
 * when the same holds after the listing.
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
      const top = [held(dir, Deno.statSync(dir))];
      const tree = await walk.dir(top, "", dir, old?.dir === dir ? old.tree : undefined);
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

  /**
   * Snapshots the last directory of `chain` (`rel` below `root`, the chain its directories
   * from the root down); returns its tree's hash.
   */
  async dir(chain: Held[], rel: string, root: string, old: Hash | undefined): Promise<Hash> {
    const path = chain.at(-1)!.path;
    const before = old === undefined ? undefined : this.#tree(old);
    const byName = new Map(before?.entries.map((entry) => [entry.name, entry]));
    const entries: Entry[] = [];
    const items = listDir(path, rel, root, this.options.isIgnored);
    // A directory swapped for a link while listed: its names are not this one's.
    for (const item of intact(chain) ? items : []) {
      const full = `${path}/${item.name}`;
      const info = lstatOrUndefined(full);
      if (!info) continue;
      const previous = byName.get(item.name);
      if (info.isDirectory) {
        const below = rel === "" ? item.name : `${rel}/${item.name}`;
        const tree = await this.dir(
          [...chain, held(full, info)],
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
        entries.push(await this.#file(chain, item.name, info, previous));
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
    chain: Held[],
    name: string,
    info: Deno.FileInfo,
    previous: Entry | undefined,
  ): Promise<FileEntry> {
    const path = `${chain.at(-1)!.path}/${name}`;
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
      : readChecked(chain, path, info, this.options.sizeCap);
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

function held(path: string, info: Deno.FileInfo): Held {
  return { path, dev: info.dev, ino: info.ino ?? 0 };
}

/** Whether every directory of `chain` below the root is still the one the walk entered. */
function intact(chain: readonly Held[]): boolean {
  return chain.slice(1).every((dir) => {
    const info = lstatOrUndefined(dir.path);
    return info !== undefined && info.isDirectory && info.dev === dir.dev &&
      (info.ino ?? 0) === dir.ino;
  });
}

/**
 * The bytes of file `path` in the last directory of `chain`, when the file opened is the
 * one `seen` (its `lstat`) describes and the chain is intact before and after; undefined
 * otherwise, or when it is larger than `cap` or unreadable.
 */
function readChecked(
  chain: readonly Held[],
  path: string,
  seen: Deno.FileInfo,
  cap: number,
): Uint8Array<ArrayBuffer> | undefined {
  if (!intact(chain)) return undefined;
  const read = readRegular(path, cap);
  if (read === undefined || read.dev !== seen.dev || read.ino !== (seen.ino ?? 0)) return undefined;
  // The file is where it was read (not behind a link since), then its directories are.
  const now = lstatOrUndefined(path);
  if (now === undefined || now.dev !== read.dev || (now.ino ?? 0) !== read.ino) return undefined;
  return intact(chain) ? read.bytes : undefined;
}

/**
 * The bytes and identity of the regular file at `path`, opened without following a link
 * or blocking; undefined when it is not a regular file (any more), is larger than `cap`, or
 * unreadable.
 */
function readRegular(
  path: string,
  cap: number,
): { bytes: Uint8Array<ArrayBuffer>; dev: number; ino: number } | undefined {
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
    if (bytes.length > cap) return undefined;
    return {
      bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length),
      dev: stats.dev,
      ino: stats.ino,
    };
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
