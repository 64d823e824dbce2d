/**
 * The text being edited at the prompt: a string, a cursor, and large pastes kept as
 * single placeholder characters that expand to the pasted text on submit.
 *
 * @module
 */

/** A paste larger than either limit is shown as one placeholder. */
export const PASTE_LIMITS = { lines: 10, chars: 1000 };

/** Placeholders are private-use characters, each standing for one paste. */
const FIRST_PLACEHOLDER = 0xe000;
const LAST_PLACEHOLDER = 0xf8ff;
const WORD = /[\p{L}\p{N}_]/u;

/**
 * An editable multi-line text with a cursor (a UTF-16 index on a code point boundary).
 * Contract: every edit keeps the cursor within the text and on a code point boundary.
 */
export class EditBuffer {
  #text = "";
  #cursor = 0;
  #pastes = new Map<string, string>();
  /** What the last Ctrl+W/U/K cut, for Ctrl+Y: text, and the pastes behind its placeholders. */
  #killed: { text: string; pastes: Map<string, string> } = { text: "", pastes: new Map() };

  /** The text with placeholders, as edited. */
  get text(): string {
    return this.#text;
  }

  /** The cursor position in `text`. */
  get cursor(): number {
    return this.#cursor;
  }

  /** The pasted text behind a placeholder character, if `char` is one. */
  paste(char: string): string | undefined {
    return this.#pastes.get(char);
  }

  /** The text to submit: every placeholder replaced by its paste. */
  value(): string {
    if (this.#pastes.size === 0) return this.#text;
    let out = "";
    for (const char of this.#text) out += this.#pastes.get(char) ?? char;
    return out;
  }

  /**
   * The text as the prompt shows it: every placeholder replaced by its label
   * (`[pasted 120 lines]`); the same as `value()` when nothing was pasted large.
   */
  shown(): string {
    if (this.#pastes.size === 0) return this.#text;
    let out = "";
    for (const char of this.#text) {
      const paste = this.#pastes.get(char);
      out += paste === undefined ? char : pasteLabel(paste);
    }
    return out;
  }

  /** Replaces everything; a text over the paste limits becomes one placeholder. */
  set(text: string): void {
    this.#text = "";
    this.#cursor = 0;
    this.#pastes.clear();
    if (isLarge(text)) this.insertPaste(text);
    else this.insert(text);
  }

  /** Inserts typed text at the cursor. */
  insert(text: string): void {
    this.#text = this.#text.slice(0, this.#cursor) + text + this.#text.slice(this.#cursor);
    this.#cursor += text.length;
  }

  /** Inserts pasted text: inline when small, else as one placeholder. */
  insertPaste(text: string): void {
    if (!isLarge(text)) return this.insert(text);
    let code = FIRST_PLACEHOLDER;
    while (code < LAST_PLACEHOLDER && this.#isTaken(String.fromCharCode(code))) code++;
    const char = String.fromCharCode(code);
    this.#pastes.set(char, text);
    this.insert(char);
  }

  /** Deletes the character before the cursor (a whole paste for a placeholder). */
  backspace(): void {
    if (this.#cursor > 0) this.#delete(this.#previous(this.#cursor), this.#cursor);
  }

  /** Deletes the character under the cursor. */
  deleteForward(): void {
    if (this.#cursor < this.#text.length) this.#delete(this.#cursor, this.#next(this.#cursor));
  }

  /** Moves one character left or right. */
  move(direction: -1 | 1): void {
    this.#cursor = direction < 0 ? this.#previous(this.#cursor) : this.#next(this.#cursor);
  }

  /** Moves to the start of the previous word or past the end of the next one. */
  moveWord(direction: -1 | 1): void {
    this.#cursor = direction < 0 ? this.#wordStart() : this.#wordEnd();
  }

  /** Moves to the start or end of the current line. */
  moveLine(edge: "start" | "end"): void {
    this.#cursor = edge === "start" ? this.#lineStart() : this.#lineEnd();
  }

  /**
   * Moves to the line above or below, keeping the column where it can.
   * Returns false (and does not move) on the first or last line.
   */
  moveVertical(direction: -1 | 1): boolean {
    const start = this.#lineStart();
    const column = this.#cursor - start;
    if (direction < 0) {
      if (start === 0) return false;
      const above = this.#text.lastIndexOf("\n", start - 2) + 1;
      this.#cursor = this.#snap(Math.min(above + column, start - 1));
      return true;
    }
    const end = this.#lineEnd();
    if (end === this.#text.length) return false;
    const belowEnd = this.#text.indexOf("\n", end + 1);
    const limit = belowEnd < 0 ? this.#text.length : belowEnd;
    this.#cursor = this.#snap(Math.min(end + 1 + column, limit));
    return true;
  }

  /** Cuts from the line start to the cursor (Ctrl+U) or from the cursor to the line end (Ctrl+K). */
  kill(side: "before" | "after"): void {
    if (side === "before") this.#kill(this.#lineStart(), this.#cursor);
    else this.#kill(this.#cursor, this.#lineEnd());
  }

  /** Cuts the word before the cursor (Ctrl+W). */
  killWord(): void {
    let start = this.#cursor;
    while (start > 0 && /\s/.test(this.#text[start - 1] ?? "")) start--;
    while (start > 0 && !/\s/.test(this.#text[start - 1] ?? "")) start--;
    this.#kill(this.#snap(start), this.#cursor);
  }

  /** Inserts what the last cut took (Ctrl+Y), its pastes as pastes again. */
  yank(): void {
    const { text, pastes } = this.#killed;
    let typed = "";
    for (const char of text) {
      const paste = pastes.get(char);
      if (paste === undefined) {
        typed += char;
        continue;
      }
      this.insert(typed);
      typed = "";
      this.insertPaste(paste);
    }
    this.insert(typed);
  }

  /** Deletes from `from` to `to`, keeping what it took for `yank` (nothing when empty). */
  #kill(from: number, to: number): void {
    if (to <= from) return;
    const text = this.#text.slice(from, to);
    const pastes = new Map<string, string>();
    for (const char of text) {
      const paste = this.#pastes.get(char);
      if (paste !== undefined) pastes.set(char, paste);
    }
    this.#killed = { text, pastes };
    this.#delete(from, to);
  }

  #delete(from: number, to: number): void {
    for (const char of this.#text.slice(from, to)) this.#pastes.delete(char);
    this.#text = this.#text.slice(0, from) + this.#text.slice(to);
    this.#cursor = from;
  }

  #isTaken(char: string): boolean {
    return this.#pastes.has(char) || this.#text.includes(char);
  }

  #previous(index: number): number {
    if (index <= 0) return 0;
    const low = this.#text.charCodeAt(index - 1);
    return low >= 0xdc00 && low <= 0xdfff && index >= 2 ? index - 2 : index - 1;
  }

  #next(index: number): number {
    if (index >= this.#text.length) return this.#text.length;
    const code = this.#text.codePointAt(index) ?? 0;
    return index + (code > 0xffff ? 2 : 1);
  }

  /** `index` moved back off the middle of a surrogate pair. */
  #snap(index: number): number {
    const code = this.#text.charCodeAt(index);
    return code >= 0xdc00 && code <= 0xdfff ? index - 1 : index;
  }

  #lineStart(): number {
    return this.#text.lastIndexOf("\n", this.#cursor - 1) + 1;
  }

  #lineEnd(): number {
    const end = this.#text.indexOf("\n", this.#cursor);
    return end < 0 ? this.#text.length : end;
  }

  #wordStart(): number {
    let i = this.#cursor;
    while (i > 0 && !WORD.test(this.#text[i - 1] ?? "")) i--;
    while (i > 0 && WORD.test(this.#text[i - 1] ?? "")) i--;
    return this.#snap(i);
  }

  #wordEnd(): number {
    let i = this.#cursor;
    while (i < this.#text.length && !WORD.test(this.#text[i] ?? "")) i++;
    while (i < this.#text.length && WORD.test(this.#text[i] ?? "")) i++;
    return this.#snap(i);
  }
}

/** Whether a paste is over the limits and is shown as a placeholder. */
export function isLarge(text: string): boolean {
  if (text.length > PASTE_LIMITS.chars) return true;
  let lines = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) {
    if (++lines > PASTE_LIMITS.lines) return true;
  }
  return false;
}

/** The label shown for a placeholder: `[pasted 120 lines]` or `[pasted 7209 chars]`. */
export function pasteLabel(text: string): string {
  const lines = text.split("\n").length;
  return lines > 1 ? `[pasted ${lines} lines]` : `[pasted ${[...text].length} chars]`;
}
