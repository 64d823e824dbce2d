/**
 * Markdown tables (`| a | b |` rows under a `|---|:--:|` delimiter) drawn with box
 * characters, columns shrunk and cells wrapped to fit the width.
 *
 * @module
 */
import { parseInline } from "./markdown_inline.ts";
import { stripStyles, type Theme } from "./theme.ts";
import { textWidth } from "./width.ts";
import { type Span, type Style, wrapSpans } from "./wrap.ts";

type Align = "left" | "center" | "right";

const DELIMITER_CELL = /^:?-+:?$/;
const MIN_COLUMN = 3;

/** Whether `line` could be a table row: it has a `|` outside a leading code indent. */
export function isTableRow(line: string): boolean {
  return line.includes("|") && !/^ {4}/.test(line);
}

/** Whether `line` is a delimiter row such as `|---|:--:|`. */
export function isDelimiterRow(line: string): boolean {
  const cells = splitRow(line);
  return line.includes("-") && cells.length > 0 && cells.every((cell) => DELIMITER_CELL.test(cell));
}

/**
 * Renders a header row, a delimiter row and body rows as a boxed table within `width`.
 * When the columns cannot fit, each row is one wrapped line of cells joined by `│`.
 */
export function renderTable(lines: readonly string[], width: number, theme: Theme): string[] {
  const [header = "", delimiter = "", ...body] = lines;
  const aligns = splitRow(delimiter).map(alignOf);
  const count = aligns.length;
  const rows = [header, ...body].map((line) => {
    const cells = splitRow(line).slice(0, count);
    while (cells.length < count) cells.push("");
    return cells.map((cell) => parseInline(cell, theme));
  });
  const widths = fitColumns(rows, count, width);
  if (!widths) return rows.flatMap((cells) => wrapSpans(joinCells(cells, theme), width));
  const line = (left: string, middle: string, right: string) =>
    theme.marker(`${left}${widths.map((w) => "─".repeat(w + 2)).join(middle)}${right}`);
  const out = [line("┌", "┬", "┐")];
  rows.forEach((cells, index) => {
    const style = index === 0 ? theme.bold : undefined;
    for (const row of drawRow(cells, widths, aligns, theme, style)) out.push(row);
    if (index === 0) out.push(line("├", "┼", "┤"));
  });
  out.push(line("└", "┴", "┘"));
  return out;
}

/** The cells of a row, without the outer pipes; `\|` stays in its cell. */
function splitRow(line: string): string[] {
  let text = line.trim();
  if (text.startsWith("|")) text = text.slice(1);
  if (text.endsWith("|") && !text.endsWith("\\|")) text = text.slice(0, -1);
  return text.split(/(?<!\\)\|/).map((cell) => cell.trim().replaceAll("\\|", "|"));
}

function alignOf(cell: string): Align {
  if (cell.startsWith(":") && cell.endsWith(":")) return "center";
  return cell.endsWith(":") ? "right" : "left";
}

/** Column widths that fit `width` with borders, or undefined when even narrow columns do not. */
function fitColumns(rows: Span[][][], count: number, width: number): number[] | undefined {
  const borders = 3 * count + 1;
  if (count * MIN_COLUMN + borders > width) return undefined;
  // No column needs more than the whole width: this bounds the shrinking below.
  const widths = new Array<number>(count).fill(1);
  for (const cells of rows) {
    cells.forEach((spans, column) => {
      const cell = Math.min(width, textWidth(spans.map((s) => s.text).join("")));
      if (cell > (widths[column] ?? 1)) widths[column] = cell;
    });
  }
  let total = widths.reduce((a, b) => a + b, 0) + borders;
  while (total > width) {
    const widest = widths.reduce((best, w, i) => w > (widths[best] ?? 0) ? i : best, 0);
    widths[widest] = (widths[widest] ?? MIN_COLUMN) - 1;
    total--;
  }
  return widths;
}

function drawRow(
  cells: Span[][],
  widths: number[],
  aligns: Align[],
  theme: Theme,
  style: Style | undefined,
): string[] {
  const wrapped = cells.map((spans, column) =>
    wrapSpans(
      style ? spans.map((s) => ({ ...s, style: s.style ?? style })) : spans,
      widths[column] ?? 1,
    )
  );
  const height = wrapped.reduce((most, rows) => Math.max(most, rows.length), 0);
  const bar = theme.marker("│");
  const out: string[] = [];
  for (let r = 0; r < height; r++) {
    const parts = wrapped.map((rows, column) =>
      pad(rows[r] ?? "", widths[column] ?? 1, aligns[column] ?? "left")
    );
    out.push(`${bar} ${parts.join(` ${bar} `)} ${bar}`);
  }
  return out;
}

function pad(text: string, width: number, align: Align): string {
  const gap = Math.max(0, width - textWidth(stripStyles(text)));
  if (align === "right") return " ".repeat(gap) + text;
  if (align === "center") {
    const left = Math.floor(gap / 2);
    return " ".repeat(left) + text + " ".repeat(gap - left);
  }
  return text + " ".repeat(gap);
}

function joinCells(cells: Span[][], theme: Theme): Span[] {
  return cells.flatMap((spans, index) =>
    index === 0 ? spans : [{ text: " │ ", style: theme.marker }, ...spans]
  );
}
