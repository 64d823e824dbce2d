/**
 * A small terminal emulator for unit tests: interprets the output powercode writes
 * (text with wide characters, CR, LF as CR LF, cursor moves, erase line/screen, SGR)
 * on a grid with scrollback, so tests can assert what a user would see.
 *
 * @module
 */
import { charWidth } from "../../src/terminal/width.ts";

// deno-lint-ignore no-control-regex
const SEQUENCE = /^\x1b\[([?0-9;]*)([A-Za-z~])/;

/** A terminal `width` columns wide and `height` rows high, with unlimited scrollback. */
export class VirtualScreen {
  width: number;
  height: number;
  /** Every row ever shown; the screen is the last `height` rows from `top`. */
  #rows: string[][] = [[]];
  #top = 0;
  #row = 0;
  #col = 0;
  #pendingWrap = false;
  /** Escape sequences and control characters this emulator does not know. */
  unknown: string[] = [];

  /** An empty screen. */
  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
  }

  /** Interprets `text`. */
  write(text: string): void {
    let i = 0;
    while (i < text.length) {
      const char = String.fromCodePoint(text.codePointAt(i) ?? 0);
      if (char === "\x1b") {
        const match = SEQUENCE.exec(text.slice(i));
        if (!match) {
          this.unknown.push(text.slice(i, i + 2));
          i += 2;
          continue;
        }
        this.#sequence(match[1] ?? "", match[2] ?? "");
        i += match[0].length;
        continue;
      }
      i += char.length;
      if (char === "\r") [this.#col, this.#pendingWrap] = [0, false];
      else if (char === "\n") this.#lineFeed();
      else if (char === "\b") [this.#col, this.#pendingWrap] = [Math.max(0, this.#col - 1), false];
      else if (char.charCodeAt(0) < 0x20 || char === "\x7f") this.unknown.push(char);
      else this.#print(char);
    }
  }

  /** All rows (scrollback and screen), trailing spaces removed, trailing empty rows dropped. */
  lines(): string[] {
    const lines = this.#rows.map((row) => row.join("").trimEnd());
    while (lines.length > 1 && lines.at(-1) === "") lines.pop();
    return lines;
  }

  /** The cursor's row (counted from the first scrollback row) and column. */
  get cursor(): { row: number; col: number } {
    return { row: this.#row, col: this.#col };
  }

  /** Changes the width, re-wrapping rows longer than it like tmux does. */
  resize(width: number): void {
    const rows: string[][] = [];
    let cursorRow = 0;
    this.#rows.forEach((row, index) => {
      if (index === this.#row) cursorRow = rows.length + Math.floor(this.#col / width);
      for (let start = 0; start === 0 || start < row.length; start += width) {
        rows.push(row.slice(start, start + width));
      }
    });
    this.width = width;
    this.#rows = rows;
    this.#row = cursorRow;
    this.#col = this.#col % width;
    this.#top = Math.max(0, this.#rows.length - this.height);
  }

  #print(char: string): void {
    const width = charWidth(char);
    if (width === 0) {
      const row = this.#current();
      row[this.#col - 1] = (row[this.#col - 1] ?? "") + char;
      return;
    }
    if (this.#pendingWrap || this.#col + width > this.width) this.#lineFeed();
    const row = this.#current();
    while (row.length < this.#col) row.push(" ");
    row[this.#col] = char;
    if (width === 2) row[this.#col + 1] = "";
    this.#col += width;
    if (this.#col >= this.width) [this.#col, this.#pendingWrap] = [this.width - 1, true];
  }

  #lineFeed(): void {
    this.#pendingWrap = false;
    this.#col = 0;
    this.#row++;
    while (this.#rows.length <= this.#row) this.#rows.push([]);
    if (this.#row >= this.#top + this.height) this.#top = this.#row - this.height + 1;
  }

  #current(): string[] {
    while (this.#rows.length <= this.#row) this.#rows.push([]);
    return this.#rows[this.#row] ?? [];
  }

  #sequence(params: string, final: string): void {
    const n = Math.max(1, Number(params) || 1);
    if (params.startsWith("?") || final === "m") return;
    this.#pendingWrap = false;
    switch (final) {
      case "A":
        this.#row = Math.max(this.#top, this.#row - n);
        return;
      case "B":
        this.#row = Math.min(this.#top + this.height - 1, this.#row + n);
        this.#current();
        return;
      case "C":
        this.#col = Math.min(this.width - 1, this.#col + n);
        return;
      case "D":
        this.#col = Math.max(0, this.#col - n);
        return;
      case "K":
        this.#current().length = Math.min(this.#current().length, this.#col);
        return;
      case "J":
        this.#current().length = Math.min(this.#current().length, this.#col);
        this.#rows.length = this.#row + 1;
        return;
      case "H":
        [this.#row, this.#col] = [this.#top, 0];
        return;
      default:
        this.unknown.push(`\x1b[${params}${final}`);
    }
  }
}
