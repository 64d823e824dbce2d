/**
 * Draws a prompt layout on the terminal and redraws only what changed: the first
 * differing cell onwards, never the whole input per key.
 *
 * @module
 */
import type { Cell, Layout } from "./prompt_layout.ts";

/** Where terminal output goes. */
export type Write = (text: string) => void;

const ESC = "\x1b[";

/**
 * The prompt area on screen, starting at the beginning of the row the cursor was on
 * when it was first drawn.
 * Contract: the caller draws layouts made for the current `width`; on a width change
 * the old rows are erased (assuming the terminal reflowed them) and drawn anew.
 */
export class PromptView {
  #write: Write;
  #rows: Cell[][] = [];
  #width = 0;
  /** The terminal cursor, relative to the first row; `col` may equal the width (pending wrap). */
  #row = 0;
  #col = 0;

  /** A view writing through `write`. */
  constructor(write: Write) {
    this.#write = write;
  }

  /** Whether anything is drawn. */
  get drawn(): boolean {
    return this.#rows.length > 0;
  }

  /** Draws `layout` for a terminal `width` columns wide, writing only the changes. */
  draw(layout: Layout, width: number): void {
    let out = "";
    if (this.#rows.length > 0 && width !== this.#width) out += this.#eraseAfterResize(width);
    this.#width = width;
    const old = this.#rows;
    const rows = layout.rows;
    const first = firstDifference(old, rows);
    if (first) {
      out += this.#moveTo(first.row, columns(rows[first.row] ?? [], first.cell));
      for (let r = first.row; r < rows.length; r++) {
        const row = rows[r] ?? [];
        if (r > first.row) out += "\r\n";
        out += paint(r === first.row ? row.slice(first.cell) : row);
        const used = columns(row, row.length);
        if (used < width) out += `${ESC}K`;
        this.#row = r;
        this.#col = used;
      }
      if (old.length > rows.length) out += this.#clearBelow();
    }
    this.#rows = rows;
    out += this.#moveTo(layout.cursor.row, layout.cursor.col);
    if (out !== "") this.#write(out);
  }

  /** Leaves the drawn rows on screen and moves below them; the next draw starts afresh. */
  finish(): void {
    if (this.#rows.length === 0) return;
    this.#write(`${this.#moveTo(this.#rows.length - 1, this.#col)}\r\n`);
    this.#reset();
  }

  /** Erases the drawn rows and leaves the cursor where they started. */
  clear(): void {
    if (this.#rows.length === 0) return;
    this.#write(`${this.#moveTo(0, 0)}${ESC}J`);
    this.#reset();
  }

  #reset(): void {
    this.#rows = [];
    this.#row = 0;
    this.#col = 0;
  }

  #moveTo(row: number, col: number): string {
    if (row === this.#row && col === this.#col && col < this.#width) return "";
    let out = "";
    if (row < this.#row) out += `${ESC}${this.#row - row}A`;
    if (row > this.#row) out += `${ESC}${row - this.#row}B`;
    out += col > 0 ? `\r${ESC}${col}C` : "\r";
    this.#row = row;
    this.#col = col;
    return out;
  }

  /** Erases the rows below the last one written (they exist, so moving down does not scroll). */
  #clearBelow(): string {
    const out = `\r${ESC}B${ESC}J`;
    this.#row += 1;
    this.#col = 0;
    return out;
  }

  /** Moves to the first row as the terminal shows it after reflowing to `width`, erases all. */
  #eraseAfterResize(width: number): string {
    let above = 0;
    for (let r = 0; r < this.#row; r++) {
      above += Math.max(1, Math.ceil(columns(this.#rows[r] ?? [], Infinity) / width));
    }
    above += Math.floor(Math.min(this.#col, Math.max(0, this.#width - 1)) / width);
    this.#reset();
    return `\r${above > 0 ? `${ESC}${above}A` : ""}${ESC}J`;
  }
}

/** The first row and cell where `after` differs from `before`, or undefined when equal. */
function firstDifference(
  before: Cell[][],
  after: Cell[][],
): { row: number; cell: number } | undefined {
  for (let r = 0; r < after.length; r++) {
    const a = before[r];
    const b = after[r] ?? [];
    if (a === undefined) return { row: r, cell: 0 };
    const length = Math.min(a.length, b.length);
    let c = 0;
    while (c < length && sameCell(a[c], b[c])) c++;
    if (c < a.length || c < b.length) return { row: r, cell: c };
  }
  return before.length > after.length
    ? { row: after.length - 1, cell: after.at(-1)?.length ?? 0 }
    : undefined;
}

function sameCell(a: Cell | undefined, b: Cell | undefined): boolean {
  return a?.text === b?.text && a?.style === b?.style;
}

function columns(row: Cell[], cells: number): number {
  let width = 0;
  for (let i = 0; i < row.length && i < cells; i++) width += row[i]?.width ?? 0;
  return width;
}

/** The cells as text, one style sequence per run of equally styled cells. */
export function paint(cells: readonly Cell[]): string {
  let out = "";
  let i = 0;
  while (i < cells.length) {
    const style = cells[i]?.style;
    let text = "";
    while (i < cells.length && cells[i]?.style === style) text += cells[i++]?.text ?? "";
    out += style ? style(text) : text;
  }
  return out;
}
