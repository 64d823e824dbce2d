/**
 * The line editor while work runs: what it hands to whoever draws it below the task, and
 * what it reports (a queued line, Esc, Alt+Up, Ctrl+L, the end of the program).
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
  /**
   * Alt+Up: the queued lines, taken out of the queue, oldest first, to edit in the input
   * (empty when nothing is queued).
   */
  recall(): Submitted[];
  /** Ctrl+L. */
  clear(): void;
  /** The program ends: leave what is drawn as output. */
  pause(): void;
}
