/**
 * A streaming markdown renderer for the terminal: headings, emphasis, inline code,
 * fenced code, lists, block quotes, rules and tables, word-wrapped to a width.
 * Text is rendered line by line as it arrives; the still-open last line (and a table
 * still growing) stays pending so it can be redrawn, also at a new width.
 *
 * @module
 */
import { compose, parseInline } from "./markdown_inline.ts";
import { isDelimiterRow, isTableRow, renderTable } from "./markdown_table.ts";
import type { TextStream } from "./plain_stream.ts";
import { sanitize } from "./sanitize.ts";
import { createTheme, stripStyles, type Theme } from "./theme.ts";
import { textWidth } from "./width.ts";
import { breakText, type Span, type Style, wrapSpans } from "./wrap.ts";

/** How to render. */
export interface MarkdownOptions {
  /** Terminal columns. */
  width: number;
  /** Use colours and text styles. */
  color: boolean;
}

interface Fence {
  char: string;
  length: number;
}

interface Context {
  theme: Theme;
  width: number;
  base?: Style;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const LIST_ITEM = /^( *)([-*+]|\d{1,9}[.)])(?: +(.*))?$/;
const TASK = /^\[([ xX])\] +(.*)$/;
const BULLETS = ["•", "◦", "▪"];
const TAB_STOP = 4;

/**
 * Renders streamed markdown. `push` returns finished rows; `pending` the rows of what
 * is still open; `end` the rest. Rows never end with a newline.
 * Contract: every piece of input is sanitized, so no row carries an escape sequence
 * other than the theme's own colours.
 */
export class MarkdownStream implements TextStream {
  #theme: Theme;
  #width: number;
  #open = "";
  #fence: Fence | undefined;
  #table: string[] = [];
  #lastBlank = true;

  /** Starts an empty stream. */
  constructor(options: MarkdownOptions) {
    this.#theme = createTheme(options.color);
    this.#width = options.width;
  }

  /** Changes the width for every row rendered from now on, including `pending()`. */
  setWidth(width: number): void {
    this.#width = width;
  }

  /** Adds streamed text; returns the rows of every line it completed. */
  push(text: string): string[] {
    this.#open += text;
    const rows: string[] = [];
    let newline = this.#open.indexOf("\n");
    while (newline >= 0) {
      rows.push(...this.#line(clean(this.#open.slice(0, newline))));
      this.#open = this.#open.slice(newline + 1);
      newline = this.#open.indexOf("\n");
    }
    return rows;
  }

  /** Rows of the open last line and of a table still being streamed, at the current width. */
  pending(): string[] {
    const open = this.#open === "" ? undefined : clean(this.#open);
    if (this.#table.length > 0) {
      const lines = open !== undefined && isTableRow(open) ? [...this.#table, open] : this.#table;
      const rows = this.#heldRows(lines);
      return open === undefined || lines.length > this.#table.length
        ? rows
        : [...rows, ...renderLine(open, this.#context(), undefined).rows];
    }
    if (open === undefined) return [];
    return renderLine(open, this.#context(), this.#fence).rows;
  }

  /** Ends the stream: the rows of everything still open. */
  end(): string[] {
    const rows = this.#open === "" ? [] : this.#line(clean(this.#open));
    this.#open = "";
    rows.push(...this.#flushTable());
    this.#fence = undefined;
    return rows;
  }

  #line(line: string): string[] {
    if (this.#fence === undefined && this.#table.length > 0) {
      const confirmed = this.#table.length > 1 || isDelimiterRow(line);
      if (isTableRow(line) && confirmed) {
        this.#table.push(line);
        return [];
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

  #flushTable(): string[] {
    const lines = this.#table;
    this.#table = [];
    if (lines.length === 0) return [];
    this.#lastBlank = false;
    return this.#heldRows(lines);
  }

  #heldRows(lines: readonly string[]): string[] {
    if (lines.length >= 2 && isDelimiterRow(lines[1] ?? "")) {
      return renderTable(lines, this.#width, this.#theme);
    }
    return lines.flatMap((line) => renderLine(line, this.#context(), undefined).rows);
  }

  #context(): Context {
    return { theme: this.#theme, width: this.#width };
  }
}

/** Renders one complete source line; returns its rows and the fence state after it. */
function renderLine(
  line: string,
  context: Context,
  fence: Fence | undefined,
): { rows: string[]; fence: Fence | undefined } {
  const { theme, width } = context;
  const fenceMatch = FENCE.exec(line);
  if (fence) {
    const closing = fenceMatch && fenceMatch[1]?.[0] === fence.char &&
      (fenceMatch[1]?.length ?? 0) >= fence.length && fenceMatch[2] === "";
    if (closing) return { rows: [theme.marker(`  ${fence.char.repeat(3)}`)], fence: undefined };
    return {
      rows: breakText(line, width - 2).map((row) => theme.codeBlock(`  ${row}`)),
      fence,
    };
  }
  if (fenceMatch) {
    const marker = fenceMatch[1] ?? "```";
    const label = `  ${marker[0]?.repeat(3)}${fenceMatch[2] ?? ""}`;
    return {
      rows: [theme.marker(label)],
      fence: { char: marker[0] ?? "`", length: marker.length },
    };
  }
  return { rows: renderBlock(line, context), fence: undefined };
}

function renderBlock(line: string, context: Context): string[] {
  const { theme, width, base } = context;
  if (line.trim() === "") return [""];
  const quote = QUOTE.exec(line);
  if (quote) {
    const inner = renderBlock(quote[1] ?? "", {
      theme,
      width: width - 2,
      base: compose(base, theme.quote),
    });
    return inner.map((row) => `${theme.quote("│")} ${row}`);
  }
  const heading = HEADING.exec(line);
  if (heading) {
    const hashes = heading[1] ?? "#";
    const title = heading[2] ?? "";
    const text = theme.color ? title : `${hashes} ${title}`;
    const style = compose(base, hashes.length <= 2 ? theme.heading : theme.bold);
    return wrapSpans(parseInline(text, theme, style), width);
  }
  if (RULE.test(line)) return [theme.marker("─".repeat(Math.max(1, Math.min(width, 60))))];
  const item = LIST_ITEM.exec(line);
  if (item) return renderItem(item, context);
  const indent = line.length - line.trimStart().length;
  return hang(" ".repeat(indent), parseInline(line.trimStart(), theme, base), context);
}

function renderItem(item: RegExpExecArray, context: Context): string[] {
  const { theme, base } = context;
  const indent = item[1] ?? "";
  const marker = item[2] ?? "-";
  let text = item[3] ?? "";
  let bullet = /\d/.test(marker) ? marker : BULLETS[Math.floor(indent.length / 2) % 3] ?? "•";
  const task = TASK.exec(text);
  if (task) {
    bullet = task[1] === " " ? "☐" : "☑";
    text = task[2] ?? "";
  }
  return hang(`${indent}${theme.marker(bullet)} `, parseInline(text, theme, base), context);
}

/** Wraps spans after `prefix` on the first row and aligned under the text on later rows. */
function hang(prefix: string, spans: Span[], context: Context): string[] {
  const indent = textWidth(stripStyles(prefix));
  const rows = wrapSpans(spans, Math.max(1, context.width - indent));
  return rows.map((row, index) => `${index === 0 ? prefix : " ".repeat(indent)}${row}`);
}

/** A source line made safe: sanitized, tabs expanded, a trailing CR dropped. */
function clean(line: string): string {
  const safe = sanitize(line.endsWith("\r") ? line.slice(0, -1) : line);
  if (!safe.includes("\t")) return safe;
  let out = "";
  for (const char of safe) {
    out += char === "\t" ? " ".repeat(TAB_STOP - (textWidth(out) % TAB_STOP)) : char;
  }
  return out;
}
