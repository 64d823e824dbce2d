/**
 * A pure function of a text, remembered for the few long texts that are asked again and
 * again: a request's tool definitions and system prompt are estimated and fingerprinted several
 * times before it is sent, each time in a loop over every character.
 *
 * @module
 */

/** Texts shorter than this are computed each time (cheap, and too many to keep). */
const MIN_CHARS = 2048;
/** Texts longer than this are computed each time (rare, and too large to keep alive). */
const MAX_CHARS = 256 * 1024;
/** How many results are kept; the oldest is dropped first. */
const KEPT = 4;

/** `compute` with its results for the last few long texts kept. */
export class LongTextMemo<T> {
  #compute: (text: string) => T;
  #kept = new Map<string, T>();

  constructor(compute: (text: string) => T) {
    this.#compute = compute;
  }

  /**
   * `compute(text)`, from the kept results when `text` is one of them.
   * Contract: returns what `compute` returns for the text (which must be pure).
   */
  of(text: string): T {
    if (text.length < MIN_CHARS || text.length > MAX_CHARS) return this.#compute(text);
    if (this.#kept.has(text)) return this.#kept.get(text) as T;
    const result = this.#compute(text);
    if (this.#kept.size >= KEPT) this.#kept.delete(this.#kept.keys().next().value as string);
    this.#kept.set(text, result);
    return result;
  }
}
