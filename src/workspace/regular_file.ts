/**
 * Opening a workspace file for reading without ever blocking: FIFOs, sockets and device
 * nodes are refused, both before the open and, in case one was swapped in meanwhile,
 * after it.
 *
 * `Deno.open` has no way to pass `O_NONBLOCK`, and opening a FIFO for reading without it
 * waits for a writer forever. `node:fs/promises` passes numeric flags through unchanged
 * and goes through the same permission checks, so the open happens there.
 *
 * @module
 */
import type { FileHandle } from "node:fs/promises";
import { kindOf, refuseSpecial } from "./file_kind.ts";
import type { Workspace } from "./workspace.ts";

/** Node's file API, loaded with the first open: starting without it is faster. */
let nodeFs: Promise<{ open: typeof import("node:fs/promises").open; flags: number }> | undefined;

function loadNodeFs() {
  return nodeFs ??= Promise.all([import("node:fs"), import("node:fs/promises")]).then((
    [{ constants }, { open }],
  ) => ({ open, flags: constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY }));
}

/** An open regular file, read by position. */
export class RegularFile implements AsyncDisposable {
  #handle: FileHandle;
  /** The size in bytes when it was opened. */
  readonly size: number;

  private constructor(handle: FileHandle, size: number) {
    this.#handle = handle;
    this.size = size;
  }

  /**
   * Opens the workspace file at `path` (as the model named it) for reading.
   * Contract: throws an Error starting with `Cannot <action> "<path>":` when the file is
   * missing or is not a regular file (directory, FIFO, socket, device); never blocks on
   * a FIFO, also when one replaces the file between the check and the open.
   */
  static async open(workspace: Workspace, path: string, action: string): Promise<RegularFile> {
    const absolute = await workspace.resolve(path);
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(absolute);
    } catch (error) {
      throw notFound(error, path, action) ?? error;
    }
    refuseSpecial(kindOf(info), path, action);
    let handle: FileHandle;
    try {
      const { open, flags } = await loadNodeFs();
      handle = await open(absolute, flags);
    } catch (error) {
      throw notFound(error, path, action) ??
        new Error(`Cannot ${action} "${path}": ${error instanceof Error ? error.message : error}`);
    }
    const stats = await handle.stat();
    const kind = kindOf({
      isFile: stats.isFile(),
      isDirectory: stats.isDirectory(),
      isFifo: stats.isFIFO(),
      isSocket: stats.isSocket(),
      isCharDevice: stats.isCharacterDevice(),
      isBlockDevice: stats.isBlockDevice(),
    });
    if (kind !== "file") await handle.close();
    refuseSpecial(kind, path, action);
    return new RegularFile(handle, stats.size);
  }

  /** Reads up to `length` bytes at `position`; fewer only at the end of the file. */
  async read(position: number, length: number): Promise<Uint8Array> {
    const buffer = new Uint8Array(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await this.#handle.read(buffer, filled, length - filled, position);
      if (bytesRead === 0) break;
      filled += bytesRead;
      position += bytesRead;
    }
    return buffer.subarray(0, filled);
  }

  /**
   * Reads the whole file, also when it grew since it was opened.
   * Contract: returns undefined as soon as more than `limit` bytes were read.
   */
  async readAll(limit: number): Promise<Uint8Array | undefined> {
    const parts: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const wanted = Math.max(this.size - total, 64 * 1024);
      const part = await this.read(total, Math.min(wanted, limit + 1 - total));
      parts.push(part);
      total += part.length;
      if (total > limit) return undefined;
      if (part.length === 0) break;
    }
    const all = new Uint8Array(total);
    let at = 0;
    for (const part of parts) {
      all.set(part, at);
      at += part.length;
    }
    return all;
  }

  /** Closes the file. */
  async close(): Promise<void> {
    await this.#handle.close();
  }

  /** Closes the file, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

function notFound(error: unknown, path: string, action: string): Error | undefined {
  const code = error instanceof Error && "code" in error ? error.code : undefined;
  if (
    error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory ||
    code === "ENOENT" || code === "ENOTDIR"
  ) {
    return new Deno.errors.NotFound(`Cannot ${action} "${path}": file not found`);
  }
  return undefined;
}
