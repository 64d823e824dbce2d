/**
 * The still-open last line of streamed text, and its rows as written: kept so that
 * each chunk costs only its own length, however long the line grows.
 *
 * @module
 */
import { sanitize } from "./sanitize.ts";
import { charWidth } from "./width.ts";

/** Rows of an open line kept for its preview: more than any terminal shows at once. */
export const PREVIEW_ROWS = 200;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * An open line: its text, and a preview of its last rows, sanitized, tabs expanded, broken
 * at the width at any character (as code is).
 * Contract: `append` costs time linear in the appended text (the preview is built once,
 * when first asked for, then kept up to date); the text holds no newline.
 */
export class OpenLine {
  #parts: string[] = [];
  #length = 0;
  #width: number;
  #tabStop: number;
  #preview: Preview | undefined;

  /** An empty line previewed at `width` columns, with tab stops every `tabStop` columns. */
  constructor(width: number, tabStop: number) {
    this.#width = Math.max(1, width);
    this.#tabStop = tabStop;
  }

  /** UTF-16 code units in the line so far. */
  get length(): number {
    return this.#length;
  }

  /** Adds text without a newline. */
  append(text: string): void {
    if (text === "") return;
    this.#parts.push(text);
    this.#length += text.length;
    if (this.#preview) this.#preview.add(text);
  }

  /** The whole line as streamed. */
  text(): string {
    if (this.#parts.length > 1) this.#parts = [this.#parts.join("")];
    return this.#parts[0] ?? "";
  }

  /** Ends the line: returns its text and starts an empty one. */
  take(): string {
    const text = this.text();
    this.#parts = [];
    this.#length = 0;
    this.#preview = undefined;
    return text;
  }

  /** The last {@linkcode PREVIEW_ROWS} rows of the line as written; [] when it is empty. */
  rows(): string[] {
    if (this.#length === 0) return [];
    if (!this.#preview) {
      this.#preview = new Preview(this.#width, this.#tabStop);
      this.#preview.add(this.text());
    }
    return this.#preview.rows();
  }

  /** Changes the preview's width (it is built again when next asked for). */
  setWidth(width: number): void {
    if (Math.max(1, width) === this.#width) return;
    this.#width = Math.max(1, width);
    this.#preview = undefined;
  }
}

/** Rows broken at the width, built chunk by chunk; only the last ones are kept. */
class Preview {
  #width: number;
  #tabStop: number;
  #done: string[] = [];
  #row = "";
  #used = 0;
  /** Columns since the start of the line, for tab stops. */
  #column = 0;
  #carry = "";

  constructor(width: number, tabStop: number) {
    this.#width = width;
    this.#tabStop = tabStop;
  }

  add(text: string): void {
    let safe = sanitize(this.#carry + text);
    this.#carry = "";
    const last = safe.charCodeAt(safe.length - 1);
    // Half of a surrogate pair waits for its other half in the next chunk.
    if (last >= 0xd800 && last <= 0xdbff) [safe, this.#carry] = [safe.slice(0, -1), safe.slice(-1)];
    if (PRINTABLE_ASCII.test(safe)) return this.#putAscii(safe);
    for (const char of safe) {
      if (char === "\t") {
        const spaces = this.#tabStop - (this.#column % this.#tabStop);
        for (let k = 0; k < spaces; k++) this.#put(" ", 1);
      } else {
        this.#put(char, charWidth(char));
      }
    }
  }

  rows(): string[] {
    const rows = this.#done.slice(-(PREVIEW_ROWS - 1));
    rows.push(this.#row);
    return rows;
  }

  /** Printable ASCII: one column a character, so rows are slices. */
  #putAscii(text: string): void {
    let at = 0;
    while (at < text.length) {
      if (this.#used >= this.#width) this.#newRow();
      const piece = text.slice(at, at + this.#width - this.#used);
      this.#row += piece;
      this.#used += piece.length;
      this.#column += piece.length;
      at += piece.length;
    }
  }

  #put(char: string, width: number): void {
    if (this.#used + width > this.#width && this.#row !== "") this.#newRow();
    this.#row += char;
    this.#used += width;
    this.#column += width;
  }

  #newRow(): void {
    this.#done.push(this.#row);
    if (this.#done.length >= 2 * PREVIEW_ROWS) this.#done = this.#done.slice(-PREVIEW_ROWS);
    [this.#row, this.#used] = ["", 0];
  }
}
