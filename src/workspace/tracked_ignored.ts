/**
 * The files git tracks that `.powercodeignore` ignores: the sandbox masks them on disk, but git
 * keeps their content in `.git/objects`, which commands must read for git to work, so
 * `git show HEAD:.env` prints them. Read from git's index file by powercode itself (never by
 * running git, whose config can run programs), so the user can be told at the start.
 *
 * @module
 */
import type { IgnoreRules } from "./ignore_rules.ts";

/** Index entries read at most, and the largest index file read (a bound, not a limit of git). */
const MAX_ENTRIES = 200_000;
const MAX_INDEX_BYTES = 64 * 1024 * 1024;

/**
 * The tracked paths under `root` that `rules` ignore, sorted; empty when there are no rules, no
 * `.git` directory or no readable index of version 2, 3 or 4.
 * Contract: never throws for what it finds on disk; reads nothing but `root/.git/index`.
 */
export async function trackedIgnored(root: string, rules: IgnoreRules): Promise<string[]> {
  if (rules.size === 0) return [];
  let bytes: Uint8Array;
  try {
    const index = `${root}/.git/index`;
    const info = await Deno.lstat(index);
    if (!info.isFile || info.size > MAX_INDEX_BYTES) return [];
    bytes = await Deno.readFile(index);
  } catch {
    return [];
  }
  return indexPaths(bytes).filter((path) => rules.match(path, false) !== undefined).sort();
}

/**
 * The paths of a git index (versions 2 to 4, see git's Documentation/gitformat-index.txt):
 * after the 12-byte header, each entry has 62 bytes of stat data, object id and flags (two more
 * flag bytes when the extended flag is set, in version 3 and later), then its path: NUL-ended
 * and padded to a multiple of 8 in versions 2 and 3, prefix-compressed against the path before
 * in version 4. A malformed index gives the paths read until the damage.
 */
export function indexPaths(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 4)) !== "DIRC") return [];
  const version = view.getUint32(4);
  if (version < 2 || version > 4) return [];
  const count = Math.min(view.getUint32(8), MAX_ENTRIES);
  const decoder = new TextDecoder();
  const paths: string[] = [];
  let offset = 12;
  let previous: Uint8Array = new Uint8Array();
  for (let entry = 0; entry < count; entry++) {
    const start = offset;
    if (offset + 62 > bytes.length) break;
    const flags = view.getUint16(offset + 60);
    offset += 62 + (version >= 3 && (flags & 0x4000) !== 0 ? 2 : 0);
    let path: Uint8Array;
    if (version === 4) {
      const strip = readVarint(bytes, offset);
      if (strip === undefined || strip.value > previous.length) break;
      offset = strip.next;
      const end = bytes.indexOf(0, offset);
      if (end < 0) break;
      const kept = previous.subarray(0, previous.length - strip.value);
      path = new Uint8Array([...kept, ...bytes.subarray(offset, end)]);
      offset = end + 1;
    } else {
      const end = bytes.indexOf(0, offset);
      if (end < 0) break;
      path = bytes.subarray(offset, end);
      // The entry (from its start) is padded with NULs to a multiple of 8, at least one.
      offset = start + Math.ceil((end + 1 - start) / 8) * 8;
    }
    previous = path;
    paths.push(decoder.decode(path));
  }
  return paths;
}

/** Git's offset varint (each further byte adds one before shifting); undefined past the end. */
function readVarint(bytes: Uint8Array, at: number): { value: number; next: number } | undefined {
  let offset = at;
  let byte = bytes[offset++];
  if (byte === undefined) return undefined;
  let value = byte & 0x7f;
  while (byte & 0x80) {
    byte = bytes[offset++];
    if (byte === undefined) return undefined;
    value = ((value + 1) << 7) | (byte & 0x7f);
  }
  return { value, next: offset };
}
