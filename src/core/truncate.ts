/**
 * The one truncation rule for what tools return to the model: keep the head of
 * file reads and the tail of command output, with a note that says what was
 * cut and how to get the rest.
 *
 * @module
 */
import { utf8Length } from "./utf8.ts";

/** Most lines a tool returns in one call. */
export const MAX_LINES = 2000;
/** Most UTF-8 bytes a tool returns in one call (50 KB). */
export const MAX_BYTES = 50 * 1024;

/** How {@linkcode truncate} cuts. */
export interface TruncateOptions {
  /** `head` keeps the start (file reads), `tail` keeps the end (command output). */
  keep: "head" | "tail";
  /** Defaults to {@linkcode MAX_LINES}. */
  maxLines?: number;
  /** Defaults to {@linkcode MAX_BYTES}. */
  maxBytes?: number;
  /** Head only: the file line number of the text's first line (default 1), for the notes. */
  firstLine?: number;
  /**
   * Head only: lines of the file after `text` when `text` is only a page of it (default 0),
   * or `"uncounted"` when the file is too large to count them.
   */
  linesAfter?: number | "uncounted";
  /**
   * Tail only: lines and bytes of the whole output when `text` is already only
   * its end (a streaming capture dropped the start). Defaults to the text's own.
   */
  total?: { lines: number; bytes: number };
}

/** The kept text and what was cut. */
export interface Truncation {
  /** The kept text, whole lines where possible. */
  text: string;
  /** Empty when nothing was cut; otherwise one bracketed line for the model. */
  note: string;
  truncated: boolean;
  keptLines: number;
  totalLines: number;
  keptBytes: number;
  totalBytes: number;
}

/**
 * Cuts `text` to at most `maxLines` lines and `maxBytes` UTF-8 bytes.
 * Contract: cuts at line boundaries, except when a single line alone exceeds
 * `maxBytes`: then head keeps that line's start and tail keeps its end.
 * Contract: the note of a head cut names the `offset` to read on from; the
 * note of a tail cut says how many lines were dropped and how to see them.
 */
export function truncate(text: string, options: TruncateOptions): Truncation {
  const maxLines = options.maxLines ?? MAX_LINES;
  const maxBytes = options.maxBytes ?? MAX_BYTES;
  const lines = splitLines(text);
  if (options.keep === "tail") lines.reverse();
  const kept: string[] = [];
  let keptBytes = 0;
  for (const line of lines) {
    const size = utf8Length(line);
    if (kept.length >= maxLines || keptBytes + size > maxBytes) break;
    kept.push(line);
    keptBytes += size;
  }
  let partial = false;
  if (kept.length === 0 && lines[0] !== undefined) {
    kept.push(cutLine(lines[0], maxBytes, options.keep));
    keptBytes = utf8Length(kept[0] ?? "");
    partial = true;
  }
  if (options.keep === "tail") kept.reverse();
  const after = options.keep === "head" ? options.linesAfter ?? 0 : 0;
  const totalBytes = options.total?.bytes ?? utf8Length(text);
  const totalLines = options.total?.lines ?? lines.length + (after === "uncounted" ? 0 : after);
  const base = { text: kept.join(""), keptLines: kept.length, totalLines, keptBytes, totalBytes };
  if (!partial && after === 0 && kept.length === totalLines && keptBytes === totalBytes) {
    return { ...base, note: "", truncated: false };
  }
  const noteOptions = { firstLine: options.firstLine ?? 1, maxBytes, partial, after };
  const note = options.keep === "head"
    ? headNote(kept.length, lines.length, noteOptions)
    : tailNote(base, noteOptions);
  return { ...base, note, truncated: true };
}

/**
 * The streaming form of a tail {@linkcode truncate}: takes text as it arrives
 * (command output) and keeps its end in bounded memory, a little more than
 * {@linkcode MAX_BYTES}, plus the line and byte totals of everything seen.
 * Contract: `finish()` equals `truncate(allPushedText, { keep: "tail" })`.
 */
export class TailBuffer {
  #pieces: { text: string; bytes: number }[] = [];
  #keptBytes = 0;
  #totalBytes = 0;
  #newlines = 0;
  #endsWithNewline = false;

  /** Appends text; drops whole pieces from the front once enough is kept. */
  push(text: string): void {
    if (text === "") return;
    const bytes = utf8Length(text);
    this.#pieces.push({ text, bytes });
    this.#keptBytes += bytes;
    this.#totalBytes += bytes;
    this.#newlines += text.split("\n").length - 1;
    this.#endsWithNewline = text.endsWith("\n");
    // Stay strictly above the limit so a cut-off first line never looks whole.
    while ((this.#pieces[0]?.bytes ?? 0) < this.#keptBytes - MAX_BYTES) {
      this.#keptBytes -= this.#pieces.shift()?.bytes ?? 0;
    }
  }

  /** The kept end, cut to the limits, with the note about the dropped start. */
  finish(): Truncation {
    const lines = this.#newlines + (this.#totalBytes > 0 && !this.#endsWithNewline ? 1 : 0);
    return truncate(this.#pieces.map((piece) => piece.text).join(""), {
      keep: "tail",
      total: { lines, bytes: this.#totalBytes },
    });
  }
}

/** Formats a byte count for people: `512 B`, `1.2 KB`, `3.4 MB`, `8.0 GB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

interface NoteOptions {
  firstLine: number;
  maxBytes: number;
  partial: boolean;
  after: number | "uncounted";
}

/** Splits into lines that keep their `\n`; the last may lack it. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  return text.split(/(?<=\n)/);
}

function cutLine(line: string, maxBytes: number, keep: "head" | "tail"): string {
  const bytes = new TextEncoder().encode(line);
  const slice = keep === "head" ? bytes.subarray(0, maxBytes) : bytes.subarray(-maxBytes);
  // A cut inside a multi-byte character leaves U+FFFD at the edge: drop it.
  const text = new TextDecoder().decode(slice);
  return keep === "head" ? text.replace(/\uFFFD$/, "") : text.replace(/^\uFFFD/, "");
}

function headNote(kept: number, available: number, options: NoteOptions): string {
  const first = options.firstLine;
  const last = first + kept - 1;
  const { after } = options;
  const total = first - 1 + available + (after === "uncounted" ? 0 : after);
  const readOn = after === "uncounted" || last < total ? `. Use offset=${last + 1} to read on` : "";
  if (options.partial) {
    return `[Line ${first} is longer than ${formatSize(options.maxBytes)}: showing only its ` +
      `start; see the rest with bash (sed -n '${first}p' FILE | cut -b ` +
      `${options.maxBytes + 1}-)${readOn}]`;
  }
  if (after === "uncounted") {
    return `[Showing lines ${first}-${last}; the file is too large to count its lines${readOn}]`;
  }
  return `[Showing lines ${first}-${last} of ${total}${readOn}]`;
}

function tailNote(base: Omit<Truncation, "note" | "truncated">, options: NoteOptions): string {
  const shown = options.partial
    ? `the end of the last line, which alone is longer than ${formatSize(options.maxBytes)}`
    : `the last ${base.keptLines} of ${base.totalLines} lines`;
  const dropped = base.totalLines - base.keptLines;
  const were = dropped === 1 ? "line was" : "lines were";
  return `[Output cut: showing ${shown} (${formatSize(base.keptBytes)} of ` +
    `${formatSize(base.totalBytes)}); ${dropped} earlier ${were} dropped. To see them, ` +
    "redirect the output to a file (cmd > out.txt 2>&1) and read it with read_file]";
}
