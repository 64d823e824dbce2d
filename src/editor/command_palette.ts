/**
 * The command palette: the list of commands a `/` typed at the start of an empty input opens
 * below it, filtered by what follows the `/`, with one entry chosen by Up/Down.
 *
 * @module
 */
import { sanitizeLine, truncateWidth } from "../terminal/mod.ts";

/** A command as the palette lists it. */
export interface PaletteEntry {
  /** What is typed, e.g. `/model`. */
  name: string;
  /** The name with its arguments, e.g. `/model [name]`. */
  usage: string;
  /** One line saying what it does. */
  help: string;
}

/** One row of the list, and whether it is the chosen entry. */
export interface PaletteRow {
  text: string;
  chosen: boolean;
}

/** Rows the list takes at most, the line saying how many more included. */
export const PALETTE_ROWS = 8;

/** Widest usage column, so that the help keeps room on a narrow screen. */
const USAGE_COLUMNS = 22;

/**
 * The open palette over a fixed list of entries.
 * Contract: the chosen entry is always one of those matching the last `filter` (none when
 * nothing matches); a new filter chooses the first match again.
 */
export class CommandPalette {
  #entries: readonly PaletteEntry[];
  #typed = "";
  #matches: readonly PaletteEntry[];
  #chosen = 0;

  /** A palette listing `entries`, in their order. */
  constructor(entries: readonly PaletteEntry[]) {
    this.#entries = entries;
    this.#matches = entries;
  }

  /**
   * Keeps the entries whose name starts with `typed` (the input, `/` included), the one
   * named exactly `typed` first.
   */
  filter(typed: string): void {
    if (typed === this.#typed) return;
    this.#typed = typed;
    const matches = this.#entries.filter((entry) => entry.name.startsWith(typed));
    this.#matches = [
      ...matches.filter((entry) => entry.name === typed),
      ...matches.filter((entry) => entry.name !== typed),
    ];
    this.#chosen = 0;
  }

  /** Moves the choice up (-1) or down (1), wrapping around. */
  move(direction: -1 | 1): void {
    const count = this.#matches.length;
    if (count > 0) this.#chosen = (this.#chosen + direction + count) % count;
  }

  /** The chosen entry, or undefined when nothing matches. */
  get chosen(): PaletteEntry | undefined {
    return this.#matches[this.#chosen];
  }

  /**
   * The list as rows of at most `width - 1` columns and at most {@linkcode PALETTE_ROWS}
   * rows: a window of the matches around the chosen one, then `… N more` when some are
   * left out; `no command starts with "/x"` when nothing matches.
   */
  rows(width: number): PaletteRow[] {
    const fit = (text: string) => truncateWidth(text, Math.max(1, width - 1));
    if (this.#matches.length === 0) {
      return [{
        text: fit(`  no command starts with "${sanitizeLine(this.#typed)}"`),
        chosen: false,
      }];
    }
    const more = this.#matches.length > PALETTE_ROWS;
    const shown = more ? PALETTE_ROWS - 1 : this.#matches.length;
    const start = Math.min(Math.max(0, this.#chosen - shown + 1), this.#matches.length - shown);
    const window = this.#matches.slice(start, start + shown);
    const column = Math.min(
      USAGE_COLUMNS,
      Math.max(...window.map((entry) => entry.usage.length)),
    );
    const rows = window.map((entry, index) => {
      const chosen = start + index === this.#chosen;
      const usage = truncateWidth(sanitizeLine(entry.usage), column).padEnd(column);
      return { text: fit(`${chosen ? "›" : " "} ${usage}  ${sanitizeLine(entry.help)}`), chosen };
    });
    if (more) {
      const left = this.#matches.length - shown;
      rows.push({ text: fit(`  … ${left} more (type to narrow, ↑↓ to move)`), chosen: false });
    }
    return rows;
  }
}
