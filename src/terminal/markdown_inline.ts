/**
 * Inline markdown (emphasis, code spans, links, escapes) turned into styled spans.
 *
 * @module
 */
import { MarkerIndex } from "./markdown_markers.ts";
import type { Theme } from "./theme.ts";
import type { Span, Style } from "./wrap.ts";

const PUNCTUATION = /[!-/:-@[-`{-~]/;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const AUTOLINK_SCHEMES = ["https:", "http:", "mailto:"];

/**
 * Parses one line of inline markdown into spans, each styled with `base` and its own
 * emphasis. Unmatched markers stay as text. Without colour (`NO_COLOR`, a pipe) the marks
 * that only a style would show stay as written (`` `code` ``, `**bold**`), as headings keep
 * their `#`s: emphasis is never lost.
 * Contract: `text` is sanitized and holds no newline.
 * Contract: time linear in the text's length (see {@linkcode MarkerIndex}), and
 * recursion only a few levels deep: whether a marker closes depends only on its
 * neighbours, so emphasis of one kind never nests in itself, a link label holds no
 * link and an autolink no autolink.
 */
export function parseInline(text: string, theme: Theme, base?: Style): Span[] {
  const markers = new MarkerIndex(text);
  const spans: Span[] = [];
  let plain = "";
  const flush = () => {
    if (plain !== "") spans.push(span(plain, base));
    plain = "";
  };
  const nest = (inner: string, style: Style) => {
    flush();
    for (const piece of parseInline(inner, theme, compose(base, style))) spans.push(piece);
  };
  let i = 0;
  while (i < text.length) {
    const char = text[i] ?? "";
    if (char === "\\" && PUNCTUATION.test(text[i + 1] ?? "")) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (char === "`") {
      const run = runLength(text, i, "`");
      const close = markers.next("`", run, i + run);
      if (close >= 0) {
        flush();
        const code = theme.color
          ? trimCode(text.slice(i + run, close))
          : text.slice(i, close + run);
        spans.push(span(code, compose(base, theme.code)));
        i = close + run;
        continue;
      }
      plain += "`".repeat(run);
      i += run;
      continue;
    }
    if (char === "*" || char === "_" || char === "~") {
      const found = emphasis(text, i, { theme, markers });
      if (found) {
        const mark = theme.color ? "" : found.mark;
        plain += mark;
        nest(found.inner, found.style);
        plain += mark;
        i = found.end;
        continue;
      }
      const run = runLength(text, i, char);
      plain += char.repeat(run);
      i += run;
      continue;
    }
    const link = char === "[" || (char === "!" && text[i + 1] === "[")
      ? markers.link(char === "!" ? i + 1 : i)
      : char === "<"
      ? autolink(text, i, markers)
      : undefined;
    if (link) {
      const { label, url } = link;
      nest(label === "" ? url : label, theme.link);
      if (label !== "" && url !== "" && url !== label) spans.push(span(` (${url})`, theme.dim));
      i = link.end;
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
  { theme, markers }: { theme: Theme; markers: MarkerIndex },
): { inner: string; style: Style; end: number; mark: string } | undefined {
  const char = text[start] ?? "";
  const run = runLength(text, start, char);
  if (char === "~" ? run !== 2 : run > 3) return undefined;
  const after = text[start + run] ?? " ";
  if (after === " ") return undefined;
  if (char === "_" && WORD_CHAR.test(text[start - 1] ?? "")) return undefined;
  const close = markers.next(char, run, start + run, (at) => {
    const closeAfter = text[at + run] ?? " ";
    return text[at - 1] !== " " && !(char === "_" && WORD_CHAR.test(closeAfter));
  });
  if (close < 0) return undefined;
  const style = char === "~"
    ? theme.strike
    : run === 1
    ? theme.italic
    : run === 2
    ? theme.bold
    : compose(theme.bold, theme.italic);
  const mark = char.repeat(run);
  return { inner: text.slice(start + run, close), style, end: close + run, mark };
}

/** `<https://…>`, `<http:…>` or `<mailto:…>` at `start`. */
function autolink(
  text: string,
  start: number,
  markers: MarkerIndex,
): { label: string; url: string; end: number } | undefined {
  const scheme = AUTOLINK_SCHEMES.find((name) => text.startsWith(name, start + 1));
  if (scheme === undefined) return undefined;
  const body = start + 1 + scheme.length;
  const stop = markers.autolinkStop(body);
  if (stop <= body || text[stop] !== ">") return undefined;
  return { label: "", url: text.slice(start + 1, stop), end: stop + 1 };
}

function runLength(text: string, start: number, char: string): number {
  let end = start;
  while (text[end] === char) end++;
  return end - start;
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
