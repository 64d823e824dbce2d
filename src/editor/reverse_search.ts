/**
 * Reverse search of the input history (Ctrl+R), as readline has it: typed text narrows the
 * search, Ctrl+R again finds an older match.
 *
 * @module
 */
import type { InputHistory } from "./input_history.ts";

/**
 * One search: its query and the entry it found.
 * Contract: never changes the history or the text being edited; the caller takes the match.
 */
export class ReverseSearch {
  #history: InputHistory;
  #query = "";
  #match: { index: number; entry: string } | undefined;
  #failed = false;

  /** A search with an empty query over `history`. */
  constructor(history: InputHistory) {
    this.#history = history;
  }

  /** What stands before the match: `(reverse-i-search)'query': `. */
  get prompt(): string {
    return `(${this.#failed ? "failed " : ""}reverse-i-search)'${this.#query}': `;
  }

  /** The entry found, or undefined before a match. */
  get match(): string | undefined {
    return this.#match?.entry;
  }

  /** Where the query starts in the match (0 without one), for the cursor. */
  get matchAt(): number {
    return Math.max(0, this.#match?.entry.indexOf(this.#query) ?? 0);
  }

  /** Adds typed text to the query; the newest entry holding it from the current match on. */
  type(text: string): void {
    this.#query += text;
    this.#search(this.#match ? this.#match.index + 1 : undefined);
  }

  /** Drops the query's last character and searches again from the newest entry. */
  backspace(): void {
    this.#query = [...this.#query].slice(0, -1).join("");
    this.#match = undefined;
    this.#search(undefined);
  }

  /** Finds an older entry holding the query (Ctrl+R again); the match stays when there is none. */
  older(): void {
    this.#search(this.#match?.index);
  }

  #search(before: number | undefined): void {
    if (this.#query === "") {
      this.#failed = false;
      return;
    }
    const found = this.#history.find(this.#query, before);
    this.#failed = found === undefined;
    if (found) this.#match = found;
  }
}

/** What a key does to a search: handled by it, or the search ends (taking the match or not). */
export type SearchStep = "handled" | "accept" | "cancel" | "accept_and_apply";

/**
 * Applies `key` to `search`: typed and pasted text narrow it, Backspace widens it, Ctrl+R
 * finds an older match; Enter takes the match, Esc, Ctrl+G and Ctrl+C cancel, and any other
 * key takes the match and then acts as itself.
 */
export function searchKey(
  search: ReverseSearch,
  key: { type: "text" | "paste"; text: string } | { type: "key"; name: string },
): SearchStep {
  if (key.type !== "key") {
    search.type(key.text.replaceAll("\n", " "));
    return "handled";
  }
  switch (key.name) {
    case "backspace":
    case "ctrl+h":
      search.backspace();
      return "handled";
    case "ctrl+r":
      search.older();
      return "handled";
    case "enter":
      return "accept";
    case "escape":
    case "ctrl+g":
    case "ctrl+c":
      return "cancel";
    default:
      return "accept_and_apply";
  }
}
