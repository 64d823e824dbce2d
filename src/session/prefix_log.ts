/**
 * The cache contract's record: for each request sent, the hashes of its prefix segments
 * (system prompt, each tool definition, each message), kept small by writing only the
 * segments after the leading run it shares with the request before it, with the tokens the
 * provider said it served from its cache and, after a miss, where the request first differed.
 *
 * @module
 */

/** A boundary the README names, where a request may differ from the one before it. */
export type PrefixBoundary = "compaction" | "model" | "undo";

/** Where a request stopped being the one before it plus new segments. */
export interface PrefixMiss {
  /** The index of the first segment that differs (0 = the system prompt). */
  segment: number;
  /** Its name, `tool read_file` or `message 3 (user)`. */
  name: string;
  /** The UTF-8 byte within that segment; absent when the request before was sent by an earlier run. */
  byte?: number;
  /** The boundary recorded between the two requests, when there was one. */
  after?: PrefixBoundary;
}

/** The session record of one request sent. */
export interface RequestRecord {
  type: "request";
  /** How many leading segments are those of the request before (by hash). */
  keep: number;
  /** The hashes of the segments after them. */
  add: string[];
  /** Prompt tokens and the part served from the cache, as the provider reported them. */
  prompt?: number;
  cached?: number;
  /** Set when the request does not start with every segment of the one before. */
  miss?: PrefixMiss;
}

/** A segment as the log takes it: what it is and its text as sent. */
export interface SegmentText {
  name: string;
  text: string;
}

/** The log's state for `/cache`. */
export interface PrefixSummary {
  requests: number;
  /** Requests whose reply reported prompt tokens. */
  reported: number;
  promptTokens: number;
  cachedTokens: number;
  /** Requests that did not start with the request before, at a named boundary or not. */
  misses: number;
  /** The latest miss and the number of its request (1 = the session's first). */
  lastMiss?: PrefixMiss & { request: number };
}

/** Follows the request records of a session. */
export class PrefixLog {
  #hashes: string[] = [];
  /** The texts of the last request this run sent; empty after a resume. */
  #texts: string[] = [];
  #boundary: PrefixBoundary | undefined;
  #summary: PrefixSummary = {
    requests: 0,
    reported: 0,
    promptTokens: 0,
    cachedTokens: 0,
    misses: 0,
  };

  /** Totals and the latest miss. */
  get summary(): PrefixSummary {
    return this.#summary;
  }

  /** The hashes of the last request's segments. */
  get hashes(): readonly string[] {
    return this.#hashes;
  }

  /** Notes a boundary; the next miss is attributed to it. */
  boundary(kind: PrefixBoundary): void {
    this.#boundary ??= kind;
  }

  /**
   * The record of a request with `segments`, compared with the last one.
   * Contract: pure with respect to the log; `apply` takes the record in.
   */
  next(segments: readonly SegmentText[], usage?: { prompt: number; cached: number }) {
    const hashes = segments.map((segment) => segmentHash(segment.text));
    let keep = 0;
    while (keep < this.#hashes.length && hashes[keep] === this.#hashes[keep]) keep++;
    const record: RequestRecord = {
      type: "request",
      keep,
      add: hashes.slice(keep),
      ...(usage ? { prompt: usage.prompt, cached: usage.cached } : {}),
    };
    if (keep < this.#hashes.length) {
      const byte = this.#texts.length === this.#hashes.length
        ? firstDifferentByte(this.#texts[keep] ?? "", segments[keep]?.text ?? "")
        : undefined;
      record.miss = {
        segment: keep,
        name: segments[keep]?.name ?? `segment ${keep + 1} (left out)`,
        ...(byte !== undefined ? { byte } : {}),
        ...(this.#boundary ? { after: this.#boundary } : {}),
      };
    }
    return { record, texts: segments.map((segment) => segment.text) };
  }

  /** Takes in a record (written now, or read back from the session file). */
  apply(record: RequestRecord, texts: string[] = []): void {
    this.#hashes = [...this.#hashes.slice(0, record.keep), ...record.add];
    this.#texts = texts;
    this.#boundary = undefined;
    const summary = this.#summary;
    summary.requests++;
    if (record.prompt !== undefined) {
      summary.reported++;
      summary.promptTokens += record.prompt;
      summary.cachedTokens += record.cached ?? 0;
    }
    if (record.miss) {
      summary.misses++;
      summary.lastMiss = { ...record.miss, request: summary.requests };
    }
  }
}

/**
 * A 64-bit hash of `text` as 16 hex digits (two 32-bit multiply-xor lanes).
 * Contract: pure and fast; meant to tell segments apart, not to resist forgery.
 */
export function segmentHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hex = (value: number) => (value >>> 0).toString(16).padStart(8, "0");
  return hex(h2) + hex(h1);
}

/** The UTF-8 offset of the first byte where `before` and `now` differ. */
export function firstDifferentByte(before: string, now: string): number {
  let index = 0;
  while (index < before.length && index < now.length && before[index] === now[index]) index++;
  // Back to a code point's start, so the prefix is whole characters.
  if (index > 0 && /[\uDC00-\uDFFF]/.test((before[index] ?? "") + (now[index] ?? ""))) index--;
  return new TextEncoder().encode(now.slice(0, index)).length;
}
