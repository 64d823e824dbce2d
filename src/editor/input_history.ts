/**
 * Prompt history: Up/Down navigation over earlier inputs, kept in a file across runs
 * (one JSON string per line, so multi-line inputs survive), capped in size.
 *
 * @module
 */

/** Where history entries are kept. */
export interface HistoryStore {
  /** Earlier entries, oldest first. */
  load(): Promise<string[]>;
  /** Adds one entry. */
  append(entry: string): Promise<void>;
}

/** Entries larger than this are not written to the file (they stay for this run). */
const MAX_STORED_CHARS = 100_000;

/**
 * A history file at `path` keeping the newest `limit` entries. Unreadable or damaged
 * lines are skipped; the file is rewritten to its newest entries when it holds more
 * than twice the limit.
 * Contract: never throws; history is a convenience, a failing file is ignored.
 */
export function historyFile(path: string, limit: number): HistoryStore {
  let lines = 0;
  return {
    async load() {
      let text: string;
      try {
        text = await Deno.readTextFile(path);
      } catch {
        return [];
      }
      const entries = text.split("\n").flatMap(parseEntry);
      lines = entries.length;
      return entries.slice(-limit);
    },
    async append(entry) {
      if (entry.length > MAX_STORED_CHARS) return;
      try {
        await Deno.writeTextFile(path, `${JSON.stringify(entry)}\n`, {
          append: true,
          mode: 0o600,
        });
        if (++lines > 2 * limit) {
          const kept = (await Deno.readTextFile(path)).split("\n").flatMap(parseEntry).slice(
            -limit,
          );
          const temp = `${path}.tmp`;
          await Deno.writeTextFile(temp, kept.map((e) => `${JSON.stringify(e)}\n`).join(""), {
            mode: 0o600,
          });
          await Deno.rename(temp, path);
          lines = kept.length;
        }
      } catch {
        // A read-only or full disk only costs the history.
      }
    },
  };
}

function parseEntry(line: string): string[] {
  if (line === "") return [];
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "string" ? [value] : [];
  } catch {
    return [];
  }
}

/**
 * Navigation over entries: `previous` and `next` step through them, starting from the
 * text being edited (the draft), which `next` gives back past the newest entry.
 */
export class InputHistory {
  #entries: string[];
  #limit: number;
  #index: number;
  #draft = "";

  /** History over `entries` (oldest first), keeping at most `limit`. */
  constructor(entries: string[], limit: number) {
    this.#limit = limit;
    this.#entries = entries.slice(-limit);
    this.#index = this.#entries.length;
  }

  /** The entry before the current one, or undefined at the oldest. */
  previous(current: string): string | undefined {
    if (this.#index === 0) return undefined;
    if (this.#index === this.#entries.length) this.#draft = current;
    this.#index--;
    return this.#entries[this.#index];
  }

  /** The entry after the current one, the draft past the newest, or undefined when already there. */
  next(): string | undefined {
    if (this.#index >= this.#entries.length) return undefined;
    this.#index++;
    return this.#index === this.#entries.length ? this.#draft : this.#entries[this.#index];
  }

  /**
   * Adds a submitted entry (not a blank one, nor a repeat of the newest) and ends navigation.
   * Returns whether it was added.
   */
  add(entry: string): boolean {
    this.#index = this.#entries.length;
    this.#draft = "";
    if (entry.trim() === "" || this.#entries.at(-1) === entry) return false;
    this.#entries.push(entry);
    if (this.#entries.length > this.#limit) this.#entries.shift();
    this.#index = this.#entries.length;
    return true;
  }

  /**
   * The newest entry older than entry `before` (default: any) holding `query`, and its index:
   * reverse search (Ctrl+R). Undefined when none does.
   */
  find(query: string, before = this.#entries.length): { index: number; entry: string } | undefined {
    for (let index = Math.min(before, this.#entries.length) - 1; index >= 0; index--) {
      const entry = this.#entries[index] ?? "";
      if (entry.includes(query)) return { index, entry };
    }
    return undefined;
  }

  /** Ends navigation without adding (the next `previous` starts at the newest). */
  reset(): void {
    this.#index = this.#entries.length;
    this.#draft = "";
  }
}
