/**
 * Display width of text in terminal columns: East Asian wide and fullwidth characters
 * take two columns, combining marks none.
 *
 * @module
 */
import { unicodeWidth } from "@std/cli/unicode-width";

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Columns that `char` (one code point) takes: 0, 1 or 2. */
export function charWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code >= 0x20 && code < 0x7f) return 1;
  return unicodeWidth(char);
}

/**
 * Columns that `text` takes on one terminal row.
 * Contract: `text` holds no control characters (sanitize it first); they count as 0.
 */
export function textWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

/**
 * The longest head of `text` that fits in `width` columns, and the columns it takes.
 * A wide character that would straddle the limit is left out whole.
 */
export function fitWidth(text: string, width: number): { head: string; width: number } {
  if (PRINTABLE_ASCII.test(text)) {
    const head = text.slice(0, Math.max(0, width));
    return { head, width: head.length };
  }
  let used = 0;
  let end = 0;
  for (const char of text) {
    const w = charWidth(char);
    if (used + w > width) break;
    used += w;
    end += char.length;
  }
  return { head: text.slice(0, end), width: used };
}

/** `text` cut to `width` columns, ending with `…` when something was cut. */
export function truncateWidth(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  if (width <= 0) return "";
  return `${fitWidth(text, width - 1).head}…`;
}
