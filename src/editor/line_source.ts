/**
 * What the REPL reads lines from, on a terminal or from piped stdin.
 *
 * @module
 */

import type { BusyHandlers } from "./busy_input.ts";

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
  /**
   * Prints a line that arrived on its own (not in answer to a key): it takes the place of a
   * shown prompt, which is drawn again below it with what was typed.
   */
  announce(text: string): void;
  /** Ends input: a pending or later `next` returns undefined. */
  close(): void;
  /** How the line `next` returned last was shown when that differs (a paste's label). */
  lastShown(): string | undefined;
  /**
   * On a terminal: shows the input through `handlers` while work runs (queued lines, Esc);
   * returns the function that ends it. From a pipe: nothing.
   */
  busy(handlers: BusyHandlers): () => void;
  /** Puts `text` back into the input (queued lines taken back); nothing from a pipe. */
  restore(text: string): void;
  /**
   * Calls the user back (a task ended, a question waits) when the terminal reported that it
   * lost the focus: a notification and a bell, as the settings say; nothing from a pipe.
   */
  attention(text: string): void;
}
