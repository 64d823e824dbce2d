/**
 * Inline markdown (emphasis, code spans, links, escapes) turned into styled spans.
 *
 * @module
 */
import type { Theme } from "./theme.ts";
import type { Span, Style } from "./wrap.ts";

const PUNCTUATION = /[!-/:-@[-`{-~]/;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const AUTOLINK = /^<((?:https?|mailto):[^>\s]+)>/;
const LINK = /^\[([^\]]*)\]\(([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+"[^"]*")?\)/;

/**
 * Parses one line of inline markdown into spans, each styled with `base` and its own
 * emphasis. Unmatched markers stay as text.
 * Contract: `text` is sanitized and holds no newline.
 */
export function parseInline(text: string, theme: Theme, base?: Style): Span[] {
  const spans: Span[] = [];
  let plain = "";
  const flush = () => {
    if (plain !== "") spans.push(span(plain, base));
    plain = "";
  };
  let i = 0;
  while (i < text.length) {
    const char = text[i] ?? "";
    const rest = text.slice(i);
    if (char === "\\" && PUNCTUATION.test(text[i + 1] ?? "")) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (char === "`") {
      const run = runLength(text, i, "`");
      const close = findRun(text, i + run, "`", run);
      if (close >= 0) {
        flush();
        spans.push(span(trimCode(text.slice(i + run, close)), compose(base, theme.code)));
        i = close + run;
        continue;
      }
      plain += "`".repeat(run);
      i += run;
      continue;
    }
    if (char === "*" || char === "_" || char === "~") {
      const found = emphasis(text, i, theme);
      if (found) {
        flush();
        spans.push(...parseInline(found.inner, theme, compose(base, found.style)));
        i = found.end;
        continue;
      }
      const run = runLength(text, i, char);
      plain += char.repeat(run);
      i += run;
      continue;
    }
    const link = char === "[" || (char === "!" && text[i + 1] === "[")
      ? LINK.exec(char === "!" ? rest.slice(1) : rest)
      : char === "<"
      ? AUTOLINK.exec(rest)
      : null;
    if (link) {
      flush();
      const [whole, label = "", url = label] = link;
      spans.push(...parseInline(label === "" ? url : label, theme, compose(base, theme.link)));
      if (label !== "" && url !== "" && url !== label) spans.push(span(` (${url})`, theme.dim));
      i += whole.length + (char === "!" ? 1 : 0);
      continue;
    }
    plain += char;
    i++;
  }
  flush();
  return spans;
}

/** A delimiter run at `start` that opens emphasis closed later in the text. */
function emphasis(
  text: string,
  start: number,
  theme: Theme,
): { inner: string; style: Style; end: number } | undefined {
  const char = text[start] ?? "";
  const run = runLength(text, start, char);
  if (char === "~" ? run !== 2 : run > 3) return undefined;
  const after = text[start + run] ?? " ";
  if (after === " ") return undefined;
  if (char === "_" && WORD_CHAR.test(text[start - 1] ?? "")) return undefined;
  let from = start + run;
  for (;;) {
    const close = findRun(text, from, char, run);
    if (close < 0) return undefined;
    const closeAfter = text[close + run] ?? " ";
    if (text[close - 1] !== " " && !(char === "_" && WORD_CHAR.test(closeAfter))) {
      const style = char === "~"
        ? theme.strike
        : run === 1
        ? theme.italic
        : run === 2
        ? theme.bold
        : compose(theme.bold, theme.italic);
      return { inner: text.slice(start + run, close), style, end: close + run };
    }
    from = close + run;
  }
}

function runLength(text: string, start: number, char: string): number {
  let end = start;
  while (text[end] === char) end++;
  return end - start;
}

/** Index of the next run of exactly `length` `char`s at or after `from`, or -1. */
function findRun(text: string, from: number, char: string, length: number): number {
  let i = text.indexOf(char, from);
  while (i >= 0) {
    const run = runLength(text, i, char);
    if (run === length) return i;
    i = text.indexOf(char, i + run);
  }
  return -1;
}

function trimCode(code: string): string {
  return code.length > 2 && code.startsWith(" ") && code.endsWith(" ") ? code.slice(1, -1) : code;
}

function span(text: string, style: Style | undefined): Span {
  return style ? { text, style } : { text };
}

/** `outer` around `inner`; `outer` may be absent. */
export function compose(outer: Style | undefined, inner: Style): Style {
  return outer ? (text) => outer(inner(text)) : inner;
}
