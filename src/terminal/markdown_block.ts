/**
 * One complete line of markdown rendered as rows: fences, headings, rules, lists,
 * block quotes and paragraphs, word-wrapped to a width.
 *
 * @module
 */
import { compose, parseInline } from "./markdown_inline.ts";
import { stripStyles, type Theme } from "./theme.ts";
import { charWidth, textWidth } from "./width.ts";
import { breakText, type Span, type Style, wrapSpans } from "./wrap.ts";

/** An open fenced code block. */
export interface Fence {
  char: string;
  length: number;
}

/** What a line is rendered with. */
export interface BlockContext {
  theme: Theme;
  width: number;
  base?: Style;
}

/** Block quotes nested deeper than this show the rest of the line as written. */
export const MAX_QUOTE_DEPTH = 16;

// Fences and headings are parsed in two steps: one regular expression for the whole
// line would backtrack quadratically on a long run of spaces.
const FENCE_START = /^ {0,3}(`{3,}|~{3,})/;
const FENCE_INFO = /^\s*([^`\s]*)/;
const HEADING_START = /^ {0,3}(#{1,6})(?=\s|$)/;
const WHITE_SPACE = /\s/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const LIST_ITEM = /^( *)([-*+]|\d{1,9}[.)])(?: +(.*))?$/;
const TASK = /^\[([ xX])\] +(.*)$/;
const BULLETS = ["•", "◦", "▪"];
/** Columns between tab stops in markdown text. */
export const TAB_STOP = 4;

/** Renders one complete source line; returns its rows and the fence state after it. */
export function renderLine(
  line: string,
  context: BlockContext,
  fence: Fence | undefined,
): { rows: string[]; fence: Fence | undefined } {
  const { theme, width } = context;
  const fenceLine = parseFence(line);
  if (fence) {
    const closing = fenceLine && fenceLine.marker[0] === fence.char &&
      fenceLine.marker.length >= fence.length && fenceLine.info === "";
    if (closing) return { rows: [theme.marker(`  ${fence.char.repeat(3)}`)], fence: undefined };
    return {
      rows: breakText(line, width - 2).map((row) => theme.codeBlock(`  ${row}`)),
      fence,
    };
  }
  if (fenceLine) {
    const { marker, info } = fenceLine;
    return {
      rows: [theme.marker(`  ${marker[0]?.repeat(3)}${info}`)],
      fence: { char: marker[0] ?? "`", length: marker.length },
    };
  }
  return { rows: renderQuoted(line, context), fence: undefined };
}

/**
 * A line behind its block quote bars, one per `>` up to {@linkcode MAX_QUOTE_DEPTH};
 * past that depth the rest is shown as written.
 */
function renderQuoted(line: string, context: BlockContext): string[] {
  const { theme } = context;
  let depth = 0;
  let rest = line;
  let base = context.base;
  for (let quote = QUOTE.exec(rest); quote; quote = QUOTE.exec(rest)) {
    if (depth === MAX_QUOTE_DEPTH) break;
    rest = quote[1] ?? "";
    base = compose(base, theme.quote);
    depth++;
  }
  if (depth === 0 || base === undefined) return renderBlock(line, context);
  const width = context.width - 2 * depth;
  const inner = depth === MAX_QUOTE_DEPTH && QUOTE.test(rest)
    ? wrapSpans([{ text: rest, style: base }], width)
    : renderBlock(rest, { theme, width, base });
  const bars = `${theme.quote("│")} `.repeat(depth);
  return inner.map((row) => `${bars}${row}`);
}

function renderBlock(line: string, context: BlockContext): string[] {
  const { theme, width, base } = context;
  if (line.trim() === "") return [""];
  const heading = parseHeading(line);
  if (heading) {
    const { hashes, title } = heading;
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

/** A fence line: its marker (three or more backticks or tildes) and info word; no backtick may follow. */
function parseFence(line: string): { marker: string; info: string } | undefined {
  const start = FENCE_START.exec(line);
  if (!start) return undefined;
  const rest = line.slice(start[0].length);
  if (rest.includes("`")) return undefined;
  return { marker: start[1] ?? "```", info: FENCE_INFO.exec(rest)?.[1] ?? "" };
}

/** An ATX heading: its hashes and its title without the optional closing hashes. */
function parseHeading(line: string): { hashes: string; title: string } | undefined {
  const start = HEADING_START.exec(line);
  if (!start) return undefined;
  const title = line.slice(start[0].length).trim();
  let end = title.length;
  while (end > 0 && title[end - 1] === "#") end--;
  const closed = end < title.length && end > 0 && WHITE_SPACE.test(title[end - 1] ?? "");
  return { hashes: start[1] ?? "#", title: closed ? title.slice(0, end).trimEnd() : title };
}

function renderItem(item: RegExpExecArray, context: BlockContext): string[] {
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
function hang(prefix: string, spans: Span[], context: BlockContext): string[] {
  const indent = textWidth(stripStyles(prefix));
  const rows = wrapSpans(spans, Math.max(1, context.width - indent));
  return rows.map((row, index) => `${index === 0 ? prefix : " ".repeat(indent)}${row}`);
}

/** Tabs in sanitized text as spaces to the next {@linkcode TAB_STOP}, by display columns. */
export function expandTabs(safe: string): string {
  if (!safe.includes("\t")) return safe;
  let out = "";
  let column = 0;
  for (const char of safe) {
    if (char === "\t") {
      const spaces = TAB_STOP - (column % TAB_STOP);
      out += " ".repeat(spaces);
      column += spaces;
    } else {
      out += char;
      column += charWidth(char);
    }
  }
  return out;
}
