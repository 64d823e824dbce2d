/**
 * What the REPL reads lines from, on a terminal or from piped stdin.
 *
 * @module
 */

/** Reads lines; see `openLineInput` in `line_input.ts`. */
export interface LineInput {
  /** The next line, or undefined at EOF (Ctrl+D, end of piped input, or `close()`). */
  next(prompt: string): Promise<string | undefined>;
  /** Text typed and not yet submitted (on a terminal: at the prompt or ahead of it). */
  pendingText(): string;
  /** Erases the text typed and not yet submitted. */
  clearLine(): void;
  /**
   * Puts `text` on the line to edit at the next prompt, unless something is typed there
   * already (on a terminal; piped input has no line to fill).
   */
  fill(text: string): void;
  /** Drops lines entered while a task ran and not yet read (type-ahead). */
  discardQueued(): void;
  /** Prints a line for the user (a hint); a shown prompt moves below it. */
  notice(text: string): void;
  /** Ends input: a pending or later `next` returns undefined. */
  close(): void;
}
