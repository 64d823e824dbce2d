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

/** Where the cursor rests in a region: a row of it and a column (less than the width). */
export interface RegionCursor {
  row: number;
  col: number;
}

/**
 * A live region. The cursor rests at the start of its last row (so that a terminal
 * reflowing on resize cannot move it off that row), or where the rows put it (an input line
 * among them); nothing else may write to the terminal while rows are shown, except through
 * `print`.
 * Contract: each row given is at most the terminal width (styled with theme colours
 * only); after a resize the old rows are erased as the terminal reflowed them.
 */
export class LiveRegion {
  #io: RegionIo;
  #rows: readonly string[] = [];
  #widths: number[] = [];
  #columns = 0;
  #cursor: RegionCursor | undefined;
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

  /**
   * Replaces the shown rows with `rows`, rewriting from the first row that changed; the cursor
   * rests at `cursor` when given, else at the start of the last row.
   */
  set(rows: readonly string[], cursor?: RegionCursor): void {
    const shown = this.#rows;
    const at = this.#cursor?.row ?? shown.length - 1;
    let same = 0;
    while (same < rows.length && same < shown.length && rows[same] === shown[same]) same++;
    if (this.#io.columns() !== this.#columns || same === 0 || same === rows.length) {
      if (
        same === rows.length && same === shown.length && this.#io.columns() === this.#columns &&
        sameCursor(cursor, this.#cursor)
      ) {
        return;
      }
      this.#io.write(this.#erase() + this.#draw(rows, 0, cursor));
      return;
    }
    let out: string;
    if (same <= at) out = `\r${at > same ? `${ESC}${at - same}A` : ""}${ESC}J`;
    else if (same === shown.length) {
      out = `${shown.length - 1 > at ? `${ESC}${shown.length - 1 - at}B` : ""}\r\n`;
    } else out = `\r${ESC}${same - at}B${ESC}J`;
    this.#io.write(out + this.#draw(rows, same, cursor));
  }

  /**
   * Prints `text` (whole lines, each ending with a newline) above the rows; `rows` (and
   * `cursor`) replace them.
   */
  print(text: string, rows?: readonly string[], cursor?: RegionCursor): void {
    if (text === "" && rows === undefined) return;
    const kept = rows ?? this.#rows;
    const keptCursor = rows === undefined ? this.#cursor : cursor;
    if (this.#mark) this.#mark.rows += this.#screenRows(text);
    this.#io.write(this.#erase() + text + this.#draw(kept, 0, keptCursor));
  }

  /**
   * Leaves the rows on screen as they are and moves below them; from then on they are
   * output like any other and the region is empty (before the terminal is handed to
   * another program, say on Ctrl+Z).
   */
  release(): void {
    if (this.#rows.length === 0) return;
    const at = this.#cursor?.row ?? this.#rows.length - 1;
    const down = this.#rows.length - 1 - at;
    this.#io.write(`${down > 0 ? `${ESC}${down}B` : ""}\r\n`);
    this.#rows = [];
    this.#widths = [];
    this.#cursor = undefined;
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
  retract(height: number, rows: readonly string[], cursor?: RegionCursor): boolean {
    const mark = this.#mark;
    this.#mark = undefined;
    if (mark === undefined || mark.rows === 0) {
      this.set(rows, cursor);
      return true;
    }
    const fits = mark.rows + Math.max(1, this.#rows.length, rows.length) <= height;
    if (!fits || mark.columns !== this.#io.columns()) return false;
    const back = `${ESC}${mark.rows}A\r${ESC}J`;
    this.#io.write(this.#erase() + back + this.#draw(rows, 0, cursor));
    return true;
  }

  /** Clears the whole screen and draws the rows again at its top. */
  clearScreen(): void {
    this.#io.write(`${ESC}H${ESC}2J${this.#draw(this.#rows, 0, this.#cursor)}`);
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

  /** Writes `rows` from row `from` on (the cursor is at that row's start) and moves to `cursor`. */
  #draw(rows: readonly string[], from: number, cursor: RegionCursor | undefined): string {
    this.#rows = rows;
    this.#widths = rows.map((row) => textWidth(stripStyles(row)));
    this.#columns = this.#io.columns();
    const inside = cursor !== undefined && cursor.row >= 0 && cursor.row < rows.length;
    this.#cursor = inside ? cursor : undefined;
    if (rows.length === 0) return "";
    let out = `${rows.slice(from).join("\r\n")}\r`;
    if (this.#cursor) {
      const up = rows.length - 1 - this.#cursor.row;
      out += `${up > 0 ? `${ESC}${up}A` : ""}${
        this.#cursor.col > 0 ? `${ESC}${this.#cursor.col}C` : ""
      }`;
    }
    return out;
  }

  #erase(): string {
    if (this.#widths.length === 0) return "";
    const columns = this.#io.columns();
    const at = this.#cursor?.row ?? this.#widths.length - 1;
    let above = at;
    if (columns !== this.#columns) {
      // The terminal reflowed the rows, and the cursor with its row.
      above = Math.floor((this.#cursor?.col ?? 0) / columns);
      for (const width of this.#widths.slice(0, at)) {
        above += Math.max(1, Math.ceil(width / columns));
      }
    }
    this.#widths = [];
    this.#rows = [];
    this.#cursor = undefined;
    return `\r${above > 0 ? `${ESC}${above}A` : ""}${ESC}J`;
  }
}

function sameCursor(a: RegionCursor | undefined, b: RegionCursor | undefined): boolean {
  return a?.row === b?.row && a?.col === b?.col;
}
