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
 * Lays out the text after the prompt, breaking rows at `width` columns by word (a word that
 * does not fit the row goes to the next one whole, unless it is longer than a row; a wide
 * character that does not fit goes to the next row) and at newlines.
 * Contract: every row is at most `width` columns wide and the cursor's column is
 * less than `width`, so the terminal never has to wrap on its own.
 */
export function layoutPrompt(input: LayoutInput): Layout {
  const width = Math.max(2, input.width);
  const rows: Cell[][] = [[]];
  let col = 0;
  /** Where the word being placed starts in the last row: after its last space (0: none). */
  let wordStart = 0;
  let cursor: { row: number; col: number } | undefined;
  const place = (cell: Cell) => {
    const row = rows.at(-1) ?? [];
    if (cell.width === 0 && row.length) {
      const last = row[row.length - 1];
      if (last) row[row.length - 1] = { ...last, text: last.text + cell.text };
      return;
    }
    if (col + cell.width > width) {
      if (cell.text === " " || !moveWord(row, cell.width)) newRow();
    }
    rows.at(-1)?.push(cell);
    col += cell.width;
    if (cell.text === " ") wordStart = rows.at(-1)?.length ?? 0;
  };
  /** Moves the last row's unfinished word to a new row, when it fits there with `more` columns. */
  const moveWord = (row: Cell[], more: number): boolean => {
    if (wordStart === 0) return false;
    const word = row.slice(wordStart);
    const at = columns(row.slice(0, wordStart));
    if (columns(word) + more > width) return false;
    row.length = wordStart;
    const from = rows.length - 1;
    newRow();
    rows.at(-1)?.push(...word);
    col = columns(word);
    if (cursor && cursor.row === from && cursor.col >= at) {
      cursor = { row: from + 1, col: cursor.col - at };
    }
    return true;
  };
  const newRow = () => {
    rows.push([]);
    col = 0;
    wordStart = 0;
  };
  const markCursor = () => {
    if (col >= width) newRow();
    cursor = { row: rows.length - 1, col };
  };
  for (const char of input.prompt) place(cell(char, input.promptStyle));
  // The prompt's own space is no break: a first word too long for its row stays beside it.
  wordStart = 0;
  let index = 0;
  for (const char of input.text) {
    if (index === input.cursor) markCursor();
    index += char.length;
    if (char === "\n") {
      newRow();
      for (const c of input.continuation) place(cell(c, input.promptStyle));
      wordStart = 0;
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

function columns(cells: readonly Cell[]): number {
  let sum = 0;
  for (const cell of cells) sum += cell.width;
  return sum;
}

function cell(char: string, style: Style | undefined): Cell {
  return { text: char, width: charWidth(char), style };
}
