/**
 * A reasoning model's thinking on a terminal: word-wrapped to the width, either kept in full
 * or shown in a few live rows that collapse to one `thinking… 12 s` line.
 *
 * @module
 */
import { sanitize, type Theme, wrapText } from "../terminal/mod.ts";

/** `full`: every row is printed; `collapsed`: a preview of the last rows, then one line. */
export type ReasoningMode = "full" | "collapsed";

/** Live rows of reasoning shown while it streams, when collapsed. */
export const PREVIEW_ROWS = 3;
/**
 * Characters of a line kept for the preview: more than three rows of any terminal hold, so
 * that a long line costs its own length once, never once per redraw.
 */
const PREVIEW_CHARS = 4096;
const TAB = "    ";

/**
 * Reasoning as it streams. Every row it returns is word-wrapped to the width it is given, so
 * the terminal never wraps a row on its own (which left half-rows behind on redraws).
 * Contract: time linear in the text; a redraw costs at most {@linkcode PREVIEW_CHARS} per
 * previewed line, whatever the line's length.
 */
export class ReasoningView {
  #mode: ReasoningMode;
  #theme: Theme;
  #started: number;
  /** The open line: all of it in full mode (it is printed), its tail when collapsed. */
  #open: string[] = [];
  #openTail = "";
  /** The latest finished lines' tails, for the collapsed preview. */
  #recent: string[] = [];

  /** A view in `mode`, started at `started` (ms), dimmed by `theme`. */
  constructor(mode: ReasoningMode, theme: Theme, started: number) {
    this.#mode = mode;
    this.#theme = theme;
    this.#started = started;
  }

  /** Adds a chunk; returns the rows to print now (finished lines, in full mode only). */
  push(chunk: string, width: number): string[] {
    const lines = chunk.split("\n");
    const last = lines.pop() ?? "";
    const rows: string[] = [];
    for (const piece of lines) {
      const line = this.#take(piece);
      if (this.#mode === "full") rows.push(...this.#wrap(line, width));
      else this.#recent = [...this.#recent, tail(line)].slice(-PREVIEW_ROWS);
    }
    this.#append(last);
    return rows;
  }

  /** The live rows: the open line (and when collapsed, the last finished ones), at most three when collapsed. */
  preview(width: number): string[] {
    const open = this.#openTail === "" ? [] : this.#wrap(tail(this.#openTail), width);
    if (this.#mode === "full") return open;
    const recent = this.#recent.flatMap((line) => this.#wrap(line, width));
    return [...recent, ...open].slice(-PREVIEW_ROWS);
  }

  /** Ends the reasoning: the open line's rows in full mode, else one `thinking… N s` line. */
  end(width: number, now: number): string[] {
    const line = this.#take("");
    if (this.#mode === "full") return line === "" ? [] : this.#wrap(line, width);
    const seconds = Math.max(1, Math.round((now - this.#started) / 1000));
    return [this.#theme.dim(`thinking… ${seconds} s`)];
  }

  #append(text: string): void {
    if (text === "") return;
    if (this.#mode === "full") this.#open.push(text);
    this.#openTail += text;
    // Cut now and then, not per chunk: each chunk then costs its own length.
    if (this.#openTail.length > 2 * PREVIEW_CHARS) this.#openTail = tail(this.#openTail);
  }

  /** The open line with `text` added, ended. */
  #take(text: string): string {
    const line = this.#mode === "full" ? this.#open.join("") + text : tail(this.#openTail + text);
    this.#open = [];
    this.#openTail = "";
    return line;
  }

  #wrap(line: string, width: number): string[] {
    const safe = sanitize(line.replaceAll("\r", "")).replaceAll("\t", TAB);
    return wrapText(safe, Math.max(1, width)).map(this.#theme.dim);
  }
}

/** The last {@linkcode PREVIEW_CHARS} of `text`, never starting inside a surrogate pair. */
function tail(text: string): string {
  if (text.length <= PREVIEW_CHARS) return text;
  const cut = text.slice(-PREVIEW_CHARS);
  const first = cut.charCodeAt(0);
  return first >= 0xdc00 && first <= 0xdfff ? cut.slice(1) : cut;
}
