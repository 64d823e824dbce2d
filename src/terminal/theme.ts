/**
 * The colours and text styles of powercode's output, as SGR sequences, or none: the one
 * colour system, chosen per output rather than by a global switch.
 *
 * @module
 */
import type { Style } from "./wrap.ts";

/** Every style the terminal UI uses; all are identity functions without colour. */
export interface Theme {
  color: boolean;
  bold: Style;
  dim: Style;
  italic: Style;
  underline: Style;
  strike: Style;
  red: Style;
  green: Style;
  yellow: Style;
  blue: Style;
  magenta: Style;
  cyan: Style;
  /** The `>` prompt. */
  prompt: Style;
  /** Markdown: `#` headings. */
  heading: Style;
  /** Markdown: `` `inline code` ``. */
  code: Style;
  /** Markdown: lines of fenced code blocks. */
  codeBlock: Style;
  /** Markdown: block quote text and bar. */
  quote: Style;
  /** Markdown: link text. */
  link: Style;
  /** Markdown: list markers, table borders, rules. */
  marker: Style;
}

function sgr(open: number, close: number): Style {
  return (text) => text === "" ? "" : `\x1b[${open}m${text}\x1b[${close}m`;
}

function both(outer: Style, inner: Style): Style {
  return (text) => outer(inner(text));
}

const plain: Style = (text) => text;

/** The theme for a terminal with colours (`color` true) or without. */
export function createTheme(color: boolean): Theme {
  if (!color) {
    return {
      color,
      bold: plain,
      dim: plain,
      italic: plain,
      underline: plain,
      strike: plain,
      red: plain,
      green: plain,
      yellow: plain,
      blue: plain,
      magenta: plain,
      cyan: plain,
      prompt: plain,
      heading: plain,
      code: plain,
      codeBlock: plain,
      quote: plain,
      link: plain,
      marker: plain,
    };
  }
  const bold = sgr(1, 22);
  const dim = sgr(2, 22);
  const italic = sgr(3, 23);
  const cyan = sgr(36, 39);
  const magenta = sgr(35, 39);
  return {
    color,
    bold,
    dim,
    italic,
    underline: sgr(4, 24),
    strike: sgr(9, 29),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    blue: sgr(34, 39),
    magenta,
    cyan,
    prompt: both(bold, cyan),
    heading: both(bold, magenta),
    code: cyan,
    codeBlock: sgr(33, 39),
    quote: both(dim, italic),
    link: both(sgr(4, 24), sgr(34, 39)),
    marker: dim,
  };
}

/** `\x1b[` + digits + `m`: the SGR sequences this theme writes. */
// deno-lint-ignore no-control-regex
const SGR = /\x1b\[[0-9;]*m/g;

/**
 * Removes the SGR sequences of this theme, e.g. to measure styled text.
 * Contract: only for text whose outside parts were sanitized (they hold no ESC).
 */
export function stripStyles(text: string): string {
  return text.replace(SGR, "");
}
