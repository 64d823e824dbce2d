/**
 * Reading a file for a search: whole when it is a UTF-8 text file of at most 10 MB, never
 * following a link and never blocking on a FIFO swapped in after the listing.
 *
 * @module
 */

/** Largest file searched. */
const MAX_SEARCHED_BYTES = 10 * 1024 * 1024;
/** Bytes looked at for a NUL, as git does. */
const BINARY_PROBE_BYTES = 8000;
/** The first read's size; most source files fit. */
const FIRST_READ_BYTES = 64 * 1024;

/** A file's text, or why it is not searched. */
export type Searchable =
  | { kind: "text"; text: string }
  | { kind: "binary" }
  | { kind: "large" }
  | { kind: "unreadable" };

/** Reads one file for a search (see {@linkcode loadSearchableReader}). */
export type SearchableReader = (absolute: string) => Searchable;

/**
 * A reader of files for a search, once `node:fs` is loaded (it opens with flags `Deno.open`
 * cannot pass).
 * Contract: the reader never throws and never blocks: it opens with `O_NOFOLLOW |
 * O_NONBLOCK` (a link is unreadable; a FIFO reads as empty or fails), reads at most 10 MB
 * (more is `large`), and a NUL byte in the first 8000 bytes or invalid UTF-8 makes the file
 * binary. Synchronous: a read through promises costs several times more per small file.
 */
export async function loadSearchableReader(): Promise<SearchableReader> {
  const fs = await import("node:fs");
  const { O_RDONLY, O_NONBLOCK, O_NOCTTY, O_NOFOLLOW } = fs.constants;
  const flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const first = new Uint8Array(FIRST_READ_BYTES);
  return (absolute) => {
    let fd: number;
    try {
      fd = fs.openSync(absolute, flags);
    } catch {
      return { kind: "unreadable" };
    }
    try {
      let buffer = first;
      let filled = 0;
      for (;;) {
        if (filled === buffer.length) {
          if (buffer.length > MAX_SEARCHED_BYTES) return { kind: "large" };
          const grown = new Uint8Array(buffer.length * 4);
          grown.set(buffer);
          buffer = grown;
        }
        const wanted = buffer.length - filled;
        const read = fs.readSync(fd, buffer, filled, wanted, null);
        filled += read;
        // A short read of a regular file is its end: one system call fewer per small file.
        if (read < wanted) break;
      }
      if (filled > MAX_SEARCHED_BYTES) return { kind: "large" };
      const data = buffer.subarray(0, filled);
      if (data.subarray(0, BINARY_PROBE_BYTES).includes(0)) return { kind: "binary" };
      return { kind: "text", text: decoder.decode(data) };
    } catch (error) {
      return error instanceof TypeError ? { kind: "binary" } : { kind: "unreadable" };
    } finally {
      fs.closeSync(fd);
    }
  };
}
