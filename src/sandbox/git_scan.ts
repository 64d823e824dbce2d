/**
 * Finds git's entries in a workspace: every entry named `.git` and every git directory
 * (see `isGitDirectory`), each with an identity that survives a rename of its parent.
 *
 * @module
 */
import { GIT_LINK, GIT_MARKERS, isGitDirectory } from "../workspace/mod.ts";

/** One entry git would use, found by {@linkcode scanGit}. */
export interface GitEntry {
  /** `root` joined with the path below it. */
  path: string;
  /** `link`: named `.git`; `directory`: a git directory by its contents. */
  role: "link" | "directory";
  /** What the entry is on disk. */
  kind: "directory" | "file" | "symlink" | "other";
  /** Device and inode, and for a symbolic link its target: the same while the entry is. */
  id: string;
  /** Whether the entry is a git directory holding `HEAD` (always false for a `link`). */
  hasHead: boolean;
}

/** What {@linkcode scanGit} found. */
export interface GitScan {
  entries: GitEntry[];
  /** Directories that could not be read even after {@linkcode ScanOptions.unlock}. */
  unreadable: string[];
}

/** How {@linkcode scanGit} walks. */
export interface ScanOptions {
  /** Whether to look inside an entry that was found (default: never). */
  descend?: (entry: GitEntry) => boolean;
  /**
   * Whether to give an unreadable directory read, write and search permission for its owner
   * and read it again (default: never).
   */
  unlock?: (dir: string) => boolean;
  /** Listings of earlier scans to reuse where a directory did not change. */
  cache?: ScanCache;
}

/**
 * How long after its last change (its ctime, which no process can set back) a directory's
 * listing may be kept: longer than the one second the ctime is read to, so a change made after
 * a listing was kept always shows as a different ctime.
 */
const SETTLE_MS = 3000;

/**
 * Directory listings kept from one scan for the next: a directory whose device, inode and
 * ctime are unchanged is not read again, so a scan of a tree that did not change costs one
 * `lstat` per directory (measured 0.18 s for 63 000 directories instead of 0.9 s).
 * Contract: keeps only the directories the last scan visited.
 */
export class ScanCache {
  #kept = new Map<string, { stamp: string; listing: Listing }>();
  #next = new Map<string, { stamp: string; listing: Listing }>();

  /** The listing kept for `dir` when it is stamped `stamp` still. */
  take(dir: string, stamp: string): Listing | undefined {
    const kept = this.#kept.get(dir);
    if (kept?.stamp !== stamp) return undefined;
    this.#next.set(dir, kept);
    return kept.listing;
  }

  /** Keeps `listing` of `dir` for the next scan, unless the directory changed too recently. */
  keep(dir: string, stamp: string, changed: Date | null, listing: Listing): void {
    if (changed === null || Date.now() - changed.getTime() < SETTLE_MS) return;
    this.#next.set(dir, { stamp, listing });
  }

  /** Ends a scan: what it visited is what the next one may reuse. */
  finish(): void {
    this.#kept = this.#next;
    this.#next = new Map();
  }
}

/**
 * Walks the tree at `root` (the root included) without following symbolic links and returns
 * git's entries, parents before children.
 * Contract: never throws for what it finds in the tree; a directory it cannot read is listed
 * in `unreadable`. Synchronous reads: measured 5 ms for 2 000 entries and 0.9 s for 500 000.
 */
export function scanGit(root: string, options: ScanOptions = {}): GitScan {
  const scan: GitScan = { entries: [], unreadable: [] };
  const pending = [root];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    const listing = list(dir, options.unlock?.(dir) ?? false, options.cache);
    if (listing === undefined) {
      scan.unreadable.push(dir);
      continue;
    }
    if (isGitDirectory(listing.markers)) {
      const entry = found(dir, "directory", listing.markers.has("HEAD"));
      if (entry !== undefined) {
        scan.entries.push(entry);
        if (!options.descend?.(entry)) continue;
      }
    }
    for (const name of listing.directories.toReversed()) {
      const path = `${dir}/${name}`;
      if (name !== GIT_LINK) {
        pending.push(path);
        continue;
      }
      const entry = found(path, "link", false);
      if (entry === undefined) continue;
      scan.entries.push(entry);
      if (entry.kind === "directory" && options.descend?.(entry)) pending.push(path);
    }
    for (const name of listing.links) {
      const entry = found(`${dir}/${name}`, "link", false);
      if (entry !== undefined) scan.entries.push(entry);
    }
  }
  options.cache?.finish();
  return scan;
}

/** One directory's subdirectories, its `.git` entries that are not directories, and markers. */
interface Listing {
  directories: string[];
  links: string[];
  markers: Set<string>;
}

const EMPTY: Listing = { directories: [], links: [], markers: new Set() };

/** The listing of `dir` (empty when it vanished), or undefined when it cannot be read. */
function list(dir: string, unlock: boolean, cache: ScanCache | undefined): Listing | undefined {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(dir);
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? EMPTY : undefined;
  }
  // Stamped before reading: a change during the read leaves a newer ctime behind.
  const stamp = `${info.dev}:${info.ino}:${info.ctime?.getTime()}`;
  const kept = cache?.take(dir, stamp);
  if (kept !== undefined) return kept;
  const listing = readOrUnlock(dir, unlock, info.mode ?? 0);
  if (listing !== undefined) cache?.keep(dir, stamp, info.ctime, listing);
  return listing;
}

function readOrUnlock(dir: string, unlock: boolean, mode: number): Listing | undefined {
  try {
    return read(dir);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return EMPTY;
    if (!unlock || !(error instanceof Deno.errors.PermissionDenied)) return undefined;
  }
  try {
    Deno.chmodSync(dir, (mode & 0o7777) | 0o700);
    return read(dir);
  } catch {
    return undefined;
  }
}

function read(dir: string): Listing {
  const listing: Listing = { directories: [], links: [], markers: new Set() };
  const markers: readonly string[] = GIT_MARKERS;
  for (const entry of Deno.readDirSync(dir)) {
    if (markers.includes(entry.name)) listing.markers.add(entry.name);
    if (entry.isDirectory) listing.directories.push(entry.name);
    else if (entry.name === GIT_LINK) listing.links.push(entry.name);
  }
  listing.directories.sort();
  return listing;
}

/** The entry at `path`, or undefined when it vanished meanwhile. */
function found(path: string, role: GitEntry["role"], hasHead: boolean): GitEntry | undefined {
  try {
    const info = Deno.lstatSync(path);
    const kind = info.isDirectory
      ? "directory"
      : info.isFile
      ? "file"
      : info.isSymlink
      ? "symlink"
      : "other";
    const target = kind === "symlink" ? `:${Deno.readLinkSync(path)}` : "";
    return { path, role, kind, id: `${info.dev}:${info.ino}${target}`, hasHead };
  } catch {
    return undefined;
  }
}
