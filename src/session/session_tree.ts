/**
 * A session as a tree of entries: every record of the file is an entry whose id is its line
 * number (the header, line 1, is the root) and whose parent is the entry it follows: the line
 * before it, or the one its `parent` field names when the session continued from an earlier
 * entry. The conversation is the path from the root to the current entry.
 *
 * @module
 */
/** The id of the root: the header line, before any record. */
export const ROOT_ENTRY = 1;

/** One record of the file with its place in the tree. */
export interface SessionEntry<R> {
  /** Its line number in the session file. */
  id: number;
  /** The entry it follows ({@linkcode ROOT_ENTRY} for the first record of a path). */
  parent: number;
  record: R;
}

/**
 * The entries of one session and the one it is at.
 * Contract: ids grow by one per added record, as lines do in the file.
 */
export class EntryTree<R> {
  #entries: SessionEntry<R>[];
  #current: number;

  /** A tree over `entries` (ids 2, 3, … in order), at `current` (default: the last one). */
  constructor(entries: readonly SessionEntry<R>[] = [], current?: number) {
    this.#entries = [...entries];
    this.#current = current ?? entries.at(-1)?.id ?? ROOT_ENTRY;
  }

  /** Every entry, in file order. */
  get entries(): readonly SessionEntry<R>[] {
    return this.#entries;
  }

  /** The entry the conversation is at. */
  get current(): number {
    return this.#current;
  }

  /** The id the next added record gets. */
  get nextId(): number {
    return this.#entries.length + ROOT_ENTRY + 1;
  }

  /**
   * Adds `record` after the current entry and makes it current; returns the parent to write
   * with it when that is not the line before (the session continued from an earlier entry).
   */
  add(record: R): number | undefined {
    const id = this.#entries.length + ROOT_ENTRY + 1;
    const parent = this.#current;
    this.#entries.push({ id, parent, record });
    this.#current = id;
    return parent === id - 1 ? undefined : parent;
  }

  /** The records from the root to entry `id`, in order. */
  pathTo(id: number): R[] {
    return entryPath(this.#entries, id);
  }

  /** The entries from the root to entry `id`, in order. Contract: as {@linkcode entryPath}. */
  pathEntries(id: number): SessionEntry<R>[] {
    return pathEntries(this.#entries, id);
  }

  /** Makes `id` current. Contract: throws a RangeError for an id that is no entry. */
  moveTo(id: number): void {
    this.entry(id);
    this.#current = id;
  }

  /** Entry `id`; the root has none. Contract: throws a RangeError for any other id. */
  entry(id: number): SessionEntry<R> | undefined {
    if (id === ROOT_ENTRY) return undefined;
    const entry = this.#entries[id - ROOT_ENTRY - 1];
    if (entry === undefined) {
      throw new RangeError(`Cannot find entry ${id} of the session`);
    }
    return entry;
  }
}

/**
 * The records on the path from the root to entry `id` of `entries` (ids 2, 3, … in order).
 * Contract: throws a RangeError for an id that is no entry; parents always point back.
 */
export function entryPath<R>(entries: readonly SessionEntry<R>[], id: number): R[] {
  return pathEntries(entries, id).map((entry) => entry.record);
}

/** The entries on the path from the root to entry `id`; contract as {@linkcode entryPath}. */
function pathEntries<R>(entries: readonly SessionEntry<R>[], id: number): SessionEntry<R>[] {
  const path: SessionEntry<R>[] = [];
  let at = id;
  while (at !== ROOT_ENTRY) {
    const entry = entries[at - ROOT_ENTRY - 1];
    if (entry === undefined) throw new RangeError(`Cannot find entry ${at} of the session`);
    path.push(entry);
    at = entry.parent;
  }
  return path.reverse();
}

/** The entries no other entry follows: the ends of the branches, in file order. */
export function leaves<R>(entries: readonly SessionEntry<R>[]): number[] {
  const parents = new Set(entries.map((entry) => entry.parent));
  return entries.filter((entry) => !parents.has(entry.id)).map((entry) => entry.id);
}
