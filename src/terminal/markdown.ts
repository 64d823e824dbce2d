/**
 * A streaming markdown renderer for the terminal: headings, emphasis, inline code,
 * fenced code, lists, block quotes, rules and tables, word-wrapped to a width.
 * Text is rendered line by line as it arrives; the still-open last line (and a table
 * still growing) stays pending so it can be redrawn, also at a new width.
 *
 * @module
 */
import {
  type BlockContext,
  expandTabs,
  type Fence,
  renderLine,
  TAB_STOP,
} from "./markdown_block.ts";
import { isDelimiterRow, isTableRow, renderTable } from "./markdown_table.ts";
import { OpenLine, PREVIEW_ROWS } from "./open_line.ts";
import type { TextStream } from "./plain_stream.ts";
import { sanitize } from "./sanitize.ts";
import { createTheme, type Theme } from "./theme.ts";
import { wrapText } from "./wrap.ts";

/** How to render. */
export interface MarkdownOptions {
  /** Terminal columns. */
  width: number;
  /** Use colours and text styles. */
  color: boolean;
}

/** An open line longer than this (UTF-16 units) is previewed as written until it ends. */
export const MAX_PREVIEW_CHARS = 4096;
/** A table longer than this many lines is shown as written, line by line. */
export const MAX_TABLE_LINES = 1000;

/**
 * Renders streamed markdown. `push` returns finished rows; `pending` the rows of what
 * is still open; `end` the rest. Rows never end with a newline.
 * Contract: every piece of input is sanitized, so no row carries an escape sequence
 * other than the theme's own colours.
 * Contract: never throws, and costs time linear in the text: each line is rendered once
 * when it ends; `pending` is kept until the text or the width changes, previews an open
 * line over {@linkcode MAX_PREVIEW_CHARS} as written (its last rows only) and a growing
 * table from its last rows; a table over {@linkcode MAX_TABLE_LINES} lines and quotes
 * nested deeper than `MAX_QUOTE_DEPTH` are shown as written.
 */
export class MarkdownStream implements TextStream {
  #theme: Theme;
  #width: number;
  #open: OpenLine;
  #fence: Fence | undefined;
  #table: string[] = [];
  /** The rest of a table past {@linkcode MAX_TABLE_LINES} is shown as written. */
  #plainTable = false;
  #lastBlank = true;
  #pending: string[] | undefined;

  /** Starts an empty stream. */
  constructor(options: MarkdownOptions) {
    this.#theme = createTheme(options.color);
    this.#width = options.width;
    this.#open = new OpenLine(options.width, TAB_STOP);
  }

  /** Changes the width for every row rendered from now on, including `pending()`. */
  setWidth(width: number): void {
    this.#width = width;
    this.#open.setWidth(width);
    this.#pending = undefined;
  }

  /** Adds streamed text; returns the rows of every line it completed. */
  push(text: string): string[] {
    const rows: string[] = [];
    let start = 0;
    for (let newline = text.indexOf("\n"); newline >= 0; newline = text.indexOf("\n", start)) {
      this.#open.append(text.slice(start, newline));
      appendRows(rows, this.#line(clean(this.#open.take())));
      start = newline + 1;
    }
    this.#open.append(text.slice(start));
    if (text !== "") this.#pending = undefined;
    return rows;
  }

  /** Rows of the open last line and of a table still being streamed, at the current width. */
  pending(): string[] {
    this.#pending ??= this.#pendingRows();
    return [...this.#pending];
  }

  /** Ends the stream: the rows of everything still open. */
  end(): string[] {
    const rows = this.#open.length === 0 ? [] : this.#line(clean(this.#open.take()));
    appendRows(rows, this.#flushTable());
    this.#fence = undefined;
    this.#plainTable = false;
    this.#pending = undefined;
    return rows;
  }

  #pendingRows(): string[] {
    const long = this.#open.length > MAX_PREVIEW_CHARS;
    const open = this.#open.length === 0 || long ? undefined : clean(this.#open.text());
    const preview = long ? this.#open.rows() : [];
    if (this.#table.length > 0) {
      const grows = open !== undefined && isTableRow(open);
      const rows = this.#heldRows(grows ? [...this.#table, open] : this.#table, true);
      if (open === undefined || grows) return [...rows, ...preview];
      return [...rows, ...renderLine(open, this.#context(), undefined).rows];
    }
    if (open === undefined) return preview;
    if (this.#plainTable && isTableRow(open)) return wrapText(open, this.#width);
    return renderLine(open, this.#context(), this.#fence).rows;
  }

  #line(line: string): string[] {
    if (this.#fence === undefined && this.#plainTable) {
      if (isTableRow(line)) return wrapText(line, this.#width);
      this.#plainTable = false;
    }
    if (this.#fence === undefined && this.#table.length > 0) {
      const confirmed = this.#table.length > 1 || isDelimiterRow(line);
      if (isTableRow(line) && confirmed) {
        if (this.#table.length < MAX_TABLE_LINES) {
          this.#table.push(line);
          return [];
        }
        return this.#giveUpTable(line);
      }
      return [...this.#flushTable(), ...this.#line(line)];
    }
    if (this.#fence === undefined && isTableRow(line)) {
      this.#table = [line];
      return [];
    }
    const rendered = renderLine(line, this.#context(), this.#fence);
    this.#fence = rendered.fence;
    const blank = line.trim() === "" && this.#fence === undefined;
    if (blank && this.#lastBlank) return [];
    this.#lastBlank = blank;
    return rendered.rows;
  }

  /** The held table and `line` as written; later rows of the table follow the same way. */
  #giveUpTable(line: string): string[] {
    const lines = this.#table;
    this.#table = [];
    this.#plainTable = true;
    this.#lastBlank = false;
    const rows: string[] = [];
    for (const held of lines) appendRows(rows, wrapText(held, this.#width));
    appendRows(rows, wrapText(line, this.#width));
    return rows;
  }

  #flushTable(): string[] {
    const lines = this.#table;
    this.#table = [];
    if (lines.length === 0) return [];
    this.#lastBlank = false;
    return this.#heldRows(lines, false);
  }

  /** A table's rows; a preview draws only its header and last rows, so it costs the same at any length. */
  #heldRows(lines: readonly string[], preview: boolean): string[] {
    if (lines.length >= 2 && isDelimiterRow(lines[1] ?? "")) {
      const shown = preview && lines.length > PREVIEW_ROWS + 2
        ? [lines[0] ?? "", lines[1] ?? "", ...lines.slice(-PREVIEW_ROWS)]
        : lines;
      return renderTable(shown, this.#width, this.#theme);
    }
    return lines.flatMap((line) => renderLine(line, this.#context(), undefined).rows);
  }

  #context(): BlockContext {
    return { theme: this.#theme, width: this.#width };
  }
}

/** Appends without spreading into a call: a line can have more rows than a call takes arguments. */
function appendRows(rows: string[], more: readonly string[]): void {
  for (const row of more) rows.push(row);
}

/** A source line made safe: sanitized, tabs expanded, a trailing CR dropped. */
function clean(line: string): string {
  return expandTabs(sanitize(line.endsWith("\r") ? line.slice(0, -1) : line));
}
