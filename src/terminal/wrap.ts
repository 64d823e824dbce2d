/**
 * Word wrapping to a terminal width: breaks at spaces and between CJK characters,
 * and inside a word only when the word alone is wider than the line.
 *
 * @module
 */
import { charWidth, textWidth } from "./width.ts";

/** Turns plain text into styled text (adds colour codes), e.g. a theme's `bold`. */
export type Style = (text: string) => string;

/** A piece of text with one style. */
export interface Span {
  text: string;
  style?: Style;
}

/** Characters between which a line may break without a space: CJK ideographs, kana, Hangul, fullwidth forms. */
const CJK = "\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff" +
  "\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6";
const TOKEN = new RegExp(`( +)|([${CJK}])|([^ ${CJK}]+)`, "gu");

/**
 * Wraps styled spans into rows of at most `width` columns (at least 1) and styles each
 * piece of each row. Spaces at a break are dropped.
 * Contract: the spans hold no newline, tab or control character; the result has at least one row.
 */
export function wrapSpans(spans: readonly Span[], width: number): string[] {
  const plain = spans.map((span) => span.text).join("");
  const rows: string[] = [];
  // Rows come in order: one cursor walks the spans once.
  let index = 0;
  let offset = 0;
  for (const [start, end] of rowRanges(plain, Math.max(1, width))) {
    while (index < spans.length && offset + (spans[index]?.text.length ?? 0) <= start) {
      offset += spans[index]?.text.length ?? 0;
      index++;
    }
    rows.push(styleRange(spans, { index, offset }, [start, end]));
  }
  return rows;
}

/** Wraps plain text; see {@link wrapSpans}. */
export function wrapText(text: string, width: number): string[] {
  return wrapSpans([{ text }], width);
}

/**
 * Wraps plain `text` like {@linkcode wrapText}, with every row after the first starting with
 * `indent` (a hanging indent), so that a wrapped line stands apart from the next one.
 * Contract: every row is at most `width` columns wide when `indent` is narrower than it.
 */
export function wrapHanging(text: string, width: number, indent: string): string[] {
  const [first = "", ...rest] = wrapText(text, width);
  if (rest.length === 0 || indent === "") return [first, ...rest];
  const remaining = text.slice(first.length).replace(/^ +/, "");
  const room = Math.max(1, width - textWidth(indent));
  return [first, ...wrapText(remaining, room).map((row) => `${indent}${row}`)];
}

/**
 * Breaks text into rows of at most `width` columns at any character, keeping every space
 * (for code). A wide character never straddles two rows.
 */
export function breakText(text: string, width: number): string[] {
  const columns = Math.max(1, width);
  const rows: string[] = [];
  let start = 0;
  let used = 0;
  let at = 0;
  for (const char of text) {
    const w = charWidth(char);
    if (used + w > columns && at > start) {
      rows.push(text.slice(start, at));
      [start, used] = [at, 0];
    }
    used += w;
    at += char.length;
  }
  if (at > start) rows.push(text.slice(start));
  return rows.length === 0 ? [""] : rows;
}

function rowRanges(plain: string, width: number): Array<[number, number]> {
  const rows: Array<[number, number]> = [];
  let start = -1;
  let end = 0;
  let used = 0;
  let space = 0;
  const newRow = (from: number, to: number, columns: number) => {
    if (start >= 0) rows.push([start, end]);
    [start, end, used, space] = [from, to, columns, 0];
  };
  for (const match of plain.matchAll(TOKEN)) {
    const from = match.index;
    const text = match[0];
    if (match[1] !== undefined) {
      if (start >= 0) space += text.length;
      else if (rows.length === 0) newRow(from, from + text.length, text.length);
      continue;
    }
    const columns = textWidth(text);
    if (start >= 0 && used + space + columns <= width) {
      [end, used, space] = [from + text.length, used + space + columns, 0];
    } else if (columns <= width) {
      newRow(from, from + text.length, columns);
    } else {
      let offset = from;
      for (const piece of breakText(text, width)) {
        newRow(offset, offset + piece.length, textWidth(piece));
        offset += piece.length;
      }
    }
  }
  if (start >= 0) rows.push([start, end]);
  return rows.length === 0 ? [[0, 0]] : rows;
}

/** The text of `range` styled span by span, starting from the span at `from`. */
function styleRange(
  spans: readonly Span[],
  from: { index: number; offset: number },
  [start, end]: [number, number],
): string {
  let out = "";
  let offset = from.offset;
  for (let index = from.index; index < spans.length && offset < end; index++) {
    const span = spans[index];
    if (!span) break;
    const lo = Math.max(start, offset);
    const hi = Math.min(end, offset + span.text.length);
    if (lo < hi) {
      const piece = span.text.slice(lo - offset, hi - offset);
      out += span.style ? span.style(piece) : piece;
    }
    offset += span.text.length;
  }
  return out;
}
