/**
 * The line editor while work runs: what it hands to whoever draws it below the task, and
 * what it reports (a queued line, Esc, Ctrl+L, a pause for Ctrl+Z).
 *
 * @module
 */

/** A submitted line: its text, and how the prompt showed it when that differs (a paste's label). */
export interface Submitted {
  text: string;
  shown?: string;
}

/** The input drawn as terminal rows (styled), and where the cursor rests among them. */
export interface PaintedInput {
  rows: string[];
  cursor: { row: number; col: number };
}

/** How the editor takes part in a running task (see `LineEditor.busy`). */
export interface BusyHandlers {
  /** Draws the input, each time it changes. */
  draw(input: PaintedInput): void;
  /** Enter (`steer`) or Alt+Enter (`follow`) on a line with text: the line is queued. */
  submit(entry: Submitted, kind: "steer" | "follow"): void;
  /** Esc. */
  escape(): void;
  /** Ctrl+L. */
  clear(): void;
  /** The terminal is handed over (Ctrl+Z, or the program ends): leave what is drawn as output. */
  pause(): void;
}
