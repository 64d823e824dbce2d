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
 * A live region. The cursor rests at the end of its last row; nothing else may write
 * to the terminal while rows are shown, except through `print`.
 * Contract: each row given is at most the terminal width (styled with theme colours
 * only); after a resize the old rows are erased as the terminal reflowed them.
 */
export class LiveRegion {
  #io: RegionIo;
  #shownRows: readonly string[] = [];
  #widths: number[] = [];
  #columns = 0;

  /** A region writing through `io`, empty at first. */
  constructor(io: RegionIo) {
    this.#io = io;
  }

  /** Whether rows are shown. */
  get shown(): boolean {
    return this.#widths.length > 0;
  }

  /** Replaces the shown rows with `rows`. */
  set(rows: readonly string[]): void {
    this.#io.write(this.#erase() + this.#draw(rows));
  }

  /** Prints `text` (whole lines, each ending with a newline) above the rows, which stay. */
  print(text: string, rows?: readonly string[]): void {
    if (text === "" && rows === undefined) return;
    const kept = rows ?? this.#shownRows;
    this.#io.write(this.#erase() + text + this.#draw(kept));
  }

  /** Removes the rows; the cursor is left where they started. */
  clear(): void {
    const erase = this.#erase();
    if (erase !== "") this.#io.write(erase);
  }

  #draw(rows: readonly string[]): string {
    this.#shownRows = rows;
    this.#widths = rows.map((row) => textWidth(stripStyles(row)));
    this.#columns = this.#io.columns();
    return rows.join("\r\n");
  }

  #erase(): string {
    if (this.#widths.length === 0) return "";
    const columns = this.#io.columns();
    let above = this.#widths.length - 1;
    if (columns !== this.#columns) {
      above = 0;
      this.#widths.forEach((width, index) => {
        const rows = Math.max(1, Math.ceil(width / columns));
        above += index === this.#widths.length - 1 ? rows - 1 : rows;
      });
    }
    this.#widths = [];
    this.#shownRows = [];
    return `\r${above > 0 ? `${ESC}${above}A` : ""}${ESC}J`;
  }
}
