/**
 * A {@linkcode FileView} that records every path a launch looked at, and every path the
 * kernel visits to resolve it (each ancestor directory, each symbolic link and what it points
 * to), with what `lstat` saw there; the launcher's cache is valid while `stat` sees the same.
 * A directory counts by its type only (a directory, not a link): its times change whenever any
 * entry in it does (say in /tmp), and what a launch read in it is recorded by name, present or
 * absent, so another directory at the same path resolves every recorded name the same.
 *
 * @module
 */
import { DENO_FILES, type FileView } from "./file_view.ts";

/** How many symbolic links one resolution follows before giving up, as Linux does. */
const MAX_LINKS = 40;

/**
 * GNU `stat -c` format of a path that is no directory, as Deno's `lstat` can tell it: raw mode
 * (type and permissions) in hex, device, inode, size, mtime to the millisecond, ctime to the
 * second.
 */
export const OBSERVED_FILE_FORMAT = "%f %d %i %s %.3Y %Z";

/** Records the paths behind every call, then makes it on the real file system. */
export class PathRecorder implements FileView {
  readonly #seen = new Map<string, Deno.FileInfo | undefined>();

  /** The recorded paths that were directories, in the order first looked at. */
  directories(): string[] {
    return [...this.#seen].filter(([, info]) => info?.isDirectory).map(([path]) => path);
  }

  /** Every other recorded path (files, links, missing paths), in the order first looked at. */
  others(): string[] {
    return [...this.#seen].filter(([, info]) => !info?.isDirectory).map(([path]) => path);
  }

  /**
   * What `stat -c OBSERVED_FILE_FORMAT -- ...others()` printed when each path was looked at:
   * one line per existing path, none for a missing one.
   */
  observed(): string {
    return [...this.#seen.values()]
      .filter((info) => info !== undefined && !info.isDirectory)
      .map((info) => info && fileLine(info))
      .join("\n");
  }

  /** Records `path` as looked at (by name, without following it), with its ancestors. */
  record(path: string): void {
    this.#resolve(path, 0, false);
  }

  realPath(path: string): Promise<string> {
    this.#resolve(path, 0, true);
    return DENO_FILES.realPath(path);
  }

  realPathSync(path: string): string {
    this.#resolve(path, 0, true);
    return DENO_FILES.realPathSync(path);
  }

  stat(path: string): Promise<Deno.FileInfo> {
    this.#resolve(path, 0, true);
    return DENO_FILES.stat(path);
  }

  readTextFile(path: string): Promise<string> {
    this.#resolve(path, 0, true);
    return DENO_FILES.readTextFile(path);
  }

  /**
   * Walks `path` (absolute) from `/` as the kernel resolves it, recording each path visited;
   * returns the resolved real path, or undefined where a component is missing.
   */
  #resolve(path: string, links: number, followLast: boolean): string | undefined {
    const parts = path.split("/").filter((part) => part !== "" && part !== ".");
    let current = "/";
    this.#note(current);
    for (const [index, part] of parts.entries()) {
      if (part === "..") {
        current = current.slice(0, current.lastIndexOf("/")) || "/";
        continue;
      }
      const next = current === "/" ? `/${part}` : `${current}/${part}`;
      const info = this.#note(next);
      if (info === undefined) return undefined;
      const last = index === parts.length - 1;
      if (!info.isSymlink || (last && !followLast) || links >= MAX_LINKS) {
        current = next;
        continue;
      }
      let target: string;
      try {
        target = Deno.readLinkSync(next);
      } catch {
        return undefined;
      }
      const resolved = this.#resolve(
        target.startsWith("/") ? target : `${current}/${target}`,
        links + 1,
        true,
      );
      if (resolved === undefined) return undefined;
      current = resolved;
    }
    return current;
  }

  #note(path: string): Deno.FileInfo | undefined {
    let info: Deno.FileInfo | undefined;
    try {
      info = Deno.lstatSync(path);
    } catch {
      info = undefined;
    }
    if (!this.#seen.has(path)) this.#seen.set(path, info);
    return info;
  }
}

/** `info` as `stat -c OBSERVED_FILE_FORMAT` prints it. */
function fileLine(info: Deno.FileInfo): string {
  const mtime = info.mtime?.getTime() ?? Number.NaN;
  const ctime = info.ctime?.getTime() ?? Number.NaN;
  const seconds = Math.floor(mtime / 1000);
  const millis = String(mtime - seconds * 1000).padStart(3, "0");
  return [
    (info.mode ?? 0).toString(16),
    info.dev,
    info.ino,
    info.size,
    `${seconds}.${millis}`,
    Math.floor(ctime / 1000),
  ].join(" ");
}
