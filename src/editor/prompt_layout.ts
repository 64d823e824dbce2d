/**
 * Lays out the prompt and the edited text as terminal rows of cells, with the cursor's
 * row and column: what the line editor draws.
 *
 * @module
 */
import { pasteLabel } from "./edit_buffer.ts";
import { charWidth, sanitizeLine, type Style } from "../terminal/mod.ts";

/** One terminal cell: a character (with any zero-width marks after it) and its style. */
export interface Cell {
  text: string;
  width: number;
  style?: Style | undefined;
}

/** Rows of cells and where the cursor is. */
export interface Layout {
  rows: Cell[][];
  cursor: { row: number; col: number };
}

/** What to lay out. */
export interface LayoutInput {
  /** The edited text, its cursor, and the paste behind a placeholder character. */
  text: string;
  cursor: number;
  paste: (char: string) => string | undefined;
  /** Shown before the first line, and before every further line. */
  prompt: string;
  continuation: string;
  width: number;
  promptStyle?: Style;
  /** The typed text's style, so that input stands apart from answers. */
  textStyle?: Style;
  pasteStyle?: Style;
}

const TAB = "    ";

/**
 * Lays out the text after the prompt, breaking rows at `width` columns (a wide
 * character that does not fit goes to the next row) and at newlines.
 * Contract: every row is at most `width` columns wide and the cursor's column is
 * less than `width`, so the terminal never has to wrap on its own.
 */
export function layoutPrompt(input: LayoutInput): Layout {
  const width = Math.max(2, input.width);
  const rows: Cell[][] = [[]];
  let col = 0;
  let cursor: { row: number; col: number } | undefined;
  const place = (cell: Cell) => {
    if (cell.width === 0 && rows.at(-1)?.length) {
      const row = rows.at(-1) ?? [];
      const last = row[row.length - 1];
      if (last) row[row.length - 1] = { ...last, text: last.text + cell.text };
      return;
    }
    if (col + cell.width > width) newRow();
    rows.at(-1)?.push(cell);
    col += cell.width;
  };
  const newRow = () => {
    rows.push([]);
    col = 0;
  };
  const markCursor = () => {
    if (col >= width) newRow();
    cursor = { row: rows.length - 1, col };
  };
  for (const char of input.prompt) place(cell(char, input.promptStyle));
  let index = 0;
  for (const char of input.text) {
    if (index === input.cursor) markCursor();
    index += char.length;
    if (char === "\n") {
      newRow();
      for (const c of input.continuation) place(cell(c, input.promptStyle));
      continue;
    }
    const paste = input.paste(char);
    const shown = paste !== undefined
      ? pasteLabel(paste)
      : char === "\t"
      ? TAB
      : sanitizeLine(char);
    const style = paste !== undefined ? input.pasteStyle : input.textStyle;
    for (const c of shown) place(cell(c, style));
  }
  if (cursor === undefined) markCursor();
  return { rows, cursor: cursor ?? { row: 0, col: 0 } };
}

function cell(char: string, style: Style | undefined): Cell {
  return { text: char, width: charWidth(char), style };
}
