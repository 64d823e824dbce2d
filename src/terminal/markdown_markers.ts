/**
 * Where the closing markers of one line of inline markdown are, found in time linear
 * in the line: a line full of unmatched `*`, `` ` `` or `[` must not cost a scan to its
 * end for each of them.
 *
 * @module
 */

/** A link's `(url "title")` part, matched right after its label's `]`. */
const LINK_TAIL = /\(([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+"[^"]*")?\)/y;
/** What ends an autolink's address. */
const AUTOLINK_STOP = /[>\s]/g;

/** A link found by {@linkcode MarkerIndex.link}. */
export interface FoundLink {
  label: string;
  url: string;
  /** Index just after the link. */
  end: number;
}

/**
 * The delimiter runs (`*`, `_`, `~`, `` ` ``) of a text by character and length, and
 * memos for links and autolinks.
 * Contract: each kind of search is asked with a `from` that never decreases (the
 * parser reads left to right, and a marker is never before its opener); then every
 * search resumes where the previous one of its kind stopped, and the searches of a
 * whole line take time linear in its length.
 */
export class MarkerIndex {
  #text: string;
  /** Starts of the maximal runs, ascending, by character and length (`"*2"`). */
  #runs = new Map<string, number[]>();
  /** Per run kind: the index in its list where the last search stopped. */
  #cursor = new Map<string, number>();
  #bracket = { from: -1, at: -1 };
  #stop = { from: -1, at: -1 };
  #tails = new Map<number, RegExpExecArray | null>();

  /** Indexes the delimiter runs of `text`. */
  constructor(text: string) {
    this.#text = text;
    let i = 0;
    while (i < text.length) {
      const char = text[i] ?? "";
      if (char !== "*" && char !== "_" && char !== "~" && char !== "`") {
        i++;
        continue;
      }
      let end = i + 1;
      while (text[end] === char) end++;
      const key = `${char}${end - i}`;
      const list = this.#runs.get(key);
      if (list) list.push(i);
      else this.#runs.set(key, [i]);
      i = end;
    }
  }

  /**
   * The start of the first run of exactly `length` `char`s at or after `from` that
   * `valid` accepts, or -1.
   */
  next(char: string, length: number, from: number, valid?: (at: number) => boolean): number {
    const key = `${char}${length}`;
    const list = this.#runs.get(key);
    if (!list) return -1;
    let k = this.#cursor.get(key) ?? 0;
    for (; k < list.length; k++) {
      const at = list[k] ?? -1;
      if (at >= from && (valid === undefined || valid(at))) break;
    }
    this.#cursor.set(key, k);
    return list[k] ?? -1;
  }

  /** The link `[label](url "title")` whose `[` is at `open`, if there is one. */
  link(open: number): FoundLink | undefined {
    const close = this.#nextBracket(open + 1);
    if (close < 0 || this.#text[close + 1] !== "(") return undefined;
    let tail = this.#tails.get(close);
    if (tail === undefined) {
      LINK_TAIL.lastIndex = close + 1;
      tail = LINK_TAIL.exec(this.#text);
      this.#tails.set(close, tail);
    }
    if (!tail) return undefined;
    const label = this.#text.slice(open + 1, close);
    return { label, url: tail[1] ?? "", end: close + 1 + tail[0].length };
  }

  /** Index of the first `>` or white space at or after `from`, or -1. */
  autolinkStop(from: number): number {
    return this.#memoSearch(this.#stop, from, () => {
      AUTOLINK_STOP.lastIndex = from;
      return AUTOLINK_STOP.exec(this.#text)?.index ?? -1;
    });
  }

  #nextBracket(from: number): number {
    return this.#memoSearch(this.#bracket, from, () => this.#text.indexOf("]", from));
  }

  /** The last answer when it still holds for `from` (nothing lies between), else a new search. */
  #memoSearch(memo: { from: number; at: number }, from: number, search: () => number): number {
    const known = memo.from >= 0 && memo.from <= from && (memo.at < 0 || memo.at >= from);
    if (!known) [memo.from, memo.at] = [from, search()];
    return memo.at;
  }
}
