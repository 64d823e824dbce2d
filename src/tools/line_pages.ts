/**
 * One page of lines from a file of any size, read in chunks: memory stays bounded and
 * only the start of the file up to the page (and, for files up to 64 MB, the rest, to
 * count its lines) is scanned.
 *
 * @module
 */
import type { RegularFile } from "../workspace/mod.ts";

/** read_file scans at most this many bytes of a file to find a line or count lines. */
export const SCAN_LIMIT_BYTES = 64 * 1024 * 1024;
const CHUNK_BYTES = 256 * 1024;
const NEWLINE = 0x0a;

/** What {@linkcode readLinePage} found. */
export type LinePage =
  | {
    kind: "page";
    /** Whole lines from the requested one on (or the start of one very long line). */
    bytes: Uint8Array;
    /** Whether `bytes` ends inside a line that goes on (a line longer than the page). */
    cutLine: boolean;
    /** Lines in the file; undefined when it is larger than {@linkcode SCAN_LIMIT_BYTES}. */
    totalLines: number | undefined;
  }
  | { kind: "past_end"; totalLines: number };

/**
 * Reads the page of `file` starting at line `offset` (1-based): `maxBytes + 4` bytes at
 * most (so that a line cut there, trimmed to whole UTF-8 characters, is still longer than
 * `maxBytes`), cut back to the last whole line.
 * Contract: reads at most the page plus the first {@linkcode SCAN_LIMIT_BYTES} of the
 * file, in chunks of 256 KB, checking `signal` between chunks; throws a RangeError when
 * line `offset` starts beyond that limit.
 */
export async function readLinePage(
  file: RegularFile,
  options: { offset: number; maxBytes: number; signal: AbortSignal },
): Promise<LinePage> {
  const { offset: line, maxBytes, signal } = options;
  const start = await findLineStart(file, line, signal);
  if (start.kind === "past_end") return start;
  if (start.position >= file.size && line > 1) return { kind: "past_end", totalLines: line - 1 };
  let bytes = await file.read(start.position, Math.min(maxBytes + 4, file.size - start.position));
  const atEnd = start.position + bytes.length >= file.size;
  let cutLine = false;
  if (!atEnd) {
    const last = bytes.lastIndexOf(NEWLINE);
    if (last >= 0) bytes = bytes.subarray(0, last + 1);
    else cutLine = true;
  }
  let totalLines: number | undefined;
  if (file.size <= SCAN_LIMIT_BYTES) {
    const rest = await countNewlines(file, start.position, file.size, signal);
    const lastByte = file.size > 0 ? (await file.read(file.size - 1, 1))[0] : NEWLINE;
    totalLines = line - 1 + rest + (lastByte === NEWLINE ? 0 : 1);
  }
  return { kind: "page", bytes, cutLine, totalLines };
}

/** The byte position where line `line` starts, or the line count when the file is shorter. */
async function findLineStart(
  file: RegularFile,
  line: number,
  signal: AbortSignal,
): Promise<{ kind: "found"; position: number } | { kind: "past_end"; totalLines: number }> {
  let seen = 1;
  let position = 0;
  while (seen < line) {
    if (position >= SCAN_LIMIT_BYTES) {
      throw new RangeError(
        `line ${line} starts beyond the first ${SCAN_LIMIT_BYTES / 1024 / 1024} MB of the file; ` +
          `read on from there with bash (sed -n '${line},+199p' FILE)`,
      );
    }
    signal.throwIfAborted();
    const chunk = await file.read(position, CHUNK_BYTES);
    if (chunk.length === 0) {
      // A last line without a newline still counts as a line.
      const last = position > 0 ? (await file.read(position - 1, 1))[0] : NEWLINE;
      return { kind: "past_end", totalLines: seen - 1 + (last === NEWLINE ? 0 : 1) };
    }
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) {
      if (++seen === line) return { kind: "found", position: position + at + 1 };
    }
    position += chunk.length;
  }
  return { kind: "found", position: 0 };
}

async function countNewlines(
  file: RegularFile,
  from: number,
  to: number,
  signal: AbortSignal,
): Promise<number> {
  let count = 0;
  for (let position = from; position < to; position += CHUNK_BYTES) {
    signal.throwIfAborted();
    const chunk = await file.read(position, Math.min(CHUNK_BYTES, to - position));
    if (chunk.length === 0) break;
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) count++;
  }
  return count;
}
