/**
 * A bundle's hash chain: each line is the SHA-256 of the previous line's hash and this
 * entry's bytes, a space, then the entry. Changing, dropping or reordering an entry breaks
 * the chain at it, and every later hash depends on it.
 *
 * @module
 */

/** The hash before a bundle's first entry. */
export const CHAIN_START = "0".repeat(64);

const LINE = /^([0-9a-f]{64}) (.*)$/;

/** The hash that chains `entry` to the one before it: sha-256 of `previous` + the entry. */
export async function chainHash(previous: string, entry: string): Promise<string> {
  const bytes = new TextEncoder().encode(previous + entry);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The bundle's text: each entry (one line of JSON) after its chained hash. */
export async function chainLines(entries: readonly string[]): Promise<string> {
  let previous = CHAIN_START;
  const lines: string[] = [];
  for (const entry of entries) {
    previous = await chainHash(previous, entry);
    lines.push(`${previous} ${entry}`);
  }
  return lines.map((line) => `${line}\n`).join("");
}

/** A bundle's entries read back, up to where its chain breaks. */
export interface ChainRead {
  /** The entries whose hashes chain, in order (entry n is `entries[n - 1]`). */
  entries: string[];
  /** The first entry (numbered from 1) whose hash does not chain, and why. */
  broken?: { entry: number; reason: string };
}

/**
 * Reads the entries of bundle `text`, checking each hash against the one before it.
 * Contract: never throws; a line without a hash, or whose hash does not chain, ends the
 * read with `broken` naming it.
 */
export async function readChain(text: string): Promise<ChainRead> {
  const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  const entries: string[] = [];
  let previous = CHAIN_START;
  for (const [index, line] of lines.entries()) {
    const entry = index + 1;
    const match = LINE.exec(line);
    if (!match) return { entries, broken: { entry, reason: "the line has no hash" } };
    const [, hash = "", body = ""] = match;
    const expected = await chainHash(previous, body);
    if (hash !== expected) {
      return {
        entries,
        broken: {
          entry,
          reason: "its hash does not chain: the entry, or one before it, was changed",
        },
      };
    }
    entries.push(body);
    previous = hash;
  }
  return { entries };
}
