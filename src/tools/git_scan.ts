/**
 * Finds git's entries in a workspace: every entry named `.git` and every git directory
 * (see `isGitDirectory`), each with an identity that survives a rename of its parent.
 *
 * @module
 */
import { GIT_LINK, GIT_MARKERS, isGitDirectory } from "./git_control.ts";

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
    const listing = list(dir, options.unlock?.(dir) ?? false);
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
  return scan;
}

/** One directory's subdirectories, its `.git` entries that are not directories, and markers. */
interface Listing {
  directories: string[];
  links: string[];
  markers: Set<string>;
}

function list(dir: string, unlock: boolean): Listing | undefined {
  try {
    return read(dir);
  } catch (error) {
    if (!unlock || !(error instanceof Deno.errors.PermissionDenied)) return undefined;
  }
  try {
    Deno.chmodSync(dir, ((Deno.lstatSync(dir).mode ?? 0) & 0o7777) | 0o700);
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
