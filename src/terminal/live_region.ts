/**
 * Rows at the bottom of the output that are redrawn in place (the status line, the
 * open line of a streamed answer, a running command's last lines), with permanent
 * output printed above them.
 *
 * @module
 */
import { stripStyles } from "./theme.ts";
import { textWidth } from "./width.ts";

/** Where terminal output goes, and how wide the terminal is now. */
export interface RegionIo {
  write: (text: string) => void;
  columns: () => number;
}

const ESC = "\x1b[";

/**
 * A live region. The cursor rests at the start of its last row (so that a terminal
 * reflowing on resize cannot move it off that row); nothing else may write
 * to the terminal while rows are shown, except through `print`.
 * Contract: each row given is at most the terminal width (styled with theme colours
 * only); after a resize the old rows are erased as the terminal reflowed them.
 */
export class LiveRegion {
  #io: RegionIo;
  #rows: readonly string[] = [];
  #widths: number[] = [];
  #columns = 0;
  /** Screen rows printed since `mark`, at the width of that time. */
  #mark: { rows: number; columns: number } | undefined;

  /** A region writing through `io`, empty at first. */
  constructor(io: RegionIo) {
    this.#io = io;
  }

  /** Whether rows are shown. */
  get shown(): boolean {
    return this.#rows.length > 0;
  }

  /** Replaces the shown rows with `rows`, rewriting from the first row that changed. */
  set(rows: readonly string[]): void {
    const shown = this.#rows;
    let same = 0;
    while (same < rows.length && same < shown.length && rows[same] === shown[same]) same++;
    if (this.#io.columns() !== this.#columns || same === 0 || same === rows.length) {
      if (same === rows.length && same === shown.length && this.#io.columns() === this.#columns) {
        return;
      }
      this.#io.write(this.#erase() + this.#draw(rows));
      return;
    }
    const up = shown.length - 1 - same;
    const out = same === shown.length ? "\r\n" : `\r${up > 0 ? `${ESC}${up}A` : ""}${ESC}J`;
    const kept = this.#widths.slice(0, same);
    this.#io.write(out + this.#draw(rows.slice(same)));
    this.#rows = rows;
    this.#widths = [...kept, ...this.#widths];
  }

  /** Prints `text` (whole lines, each ending with a newline) above the rows; `rows` replace them. */
  print(text: string, rows?: readonly string[]): void {
    if (text === "" && rows === undefined) return;
    const kept = rows ?? this.#rows;
    if (this.#mark) this.#mark.rows += this.#screenRows(text);
    this.#io.write(this.#erase() + text + this.#draw(kept));
  }

  /** Starts counting what is printed from now on, so that {@linkcode retract} can take it back. */
  mark(): void {
    this.#mark = { rows: 0, columns: this.#io.columns() };
  }

  /** Forgets the mark: what was printed since stays. */
  unmark(): void {
    this.#mark = undefined;
  }

  /**
   * Erases what was printed since `mark` and shows `rows` in place of the region; the mark
   * is gone either way.
   * Contract: false, with nothing erased, when that text may be off a screen `height` rows
   * high (it and the region together are taller) or the width changed since (it reflowed).
   */
  retract(height: number, rows: readonly string[]): boolean {
    const mark = this.#mark;
    this.#mark = undefined;
    if (mark === undefined || mark.rows === 0) {
      this.set(rows);
      return true;
    }
    const fits = mark.rows + Math.max(1, this.#rows.length, rows.length) <= height;
    if (!fits || mark.columns !== this.#io.columns()) return false;
    const back = `${ESC}${mark.rows}A\r${ESC}J`;
    this.#io.write(this.#erase() + back + this.#draw(rows));
    return true;
  }

  /** Removes the rows; the cursor is left where they started. */
  clear(): void {
    const erase = this.#erase();
    if (erase !== "") this.#io.write(erase);
  }

  /** How many screen rows `text` (lines ending with a newline) takes at the current width. */
  #screenRows(text: string): number {
    const columns = Math.max(1, this.#io.columns());
    const lines = text.split("\n").slice(0, -1);
    return lines.reduce(
      (sum, line) =>
        sum + Math.max(1, Math.ceil(textWidth(stripStyles(line.replace(/\r$/, ""))) / columns)),
      0,
    );
  }

  #draw(rows: readonly string[]): string {
    this.#rows = rows;
    this.#widths = rows.map((row) => textWidth(stripStyles(row)));
    this.#columns = this.#io.columns();
    return rows.length > 0 ? `${rows.join("\r\n")}\r` : "";
  }

  #erase(): string {
    if (this.#widths.length === 0) return "";
    const columns = this.#io.columns();
    let above = this.#widths.length - 1;
    if (columns !== this.#columns) {
      above = 0;
      for (const width of this.#widths.slice(0, -1)) {
        above += Math.max(1, Math.ceil(width / columns));
      }
    }
    this.#widths = [];
    this.#rows = [];
    return `\r${above > 0 ? `${ESC}${above}A` : ""}${ESC}J`;
  }
}
