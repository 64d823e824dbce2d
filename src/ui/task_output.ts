/**
 * Where the renderer's output goes: the one interface of the live terminal view and of
 * plain writers for pipes. The renderer words everything; the outputs differ in how
 * much they show and how they lay it out, so the renderer never asks which it has.
 *
 * @module
 */

/** The status line's fixed parts for one task. */
export interface TaskStatus {
  model: string;
  contextTokens?: number;
  contextWindow?: number;
  /** The status line's marks (plan mode, the todo count), read at each redraw. */
  marks?: () => readonly string[];
}

/** A live terminal view, or plain writers for pipes. */
export interface TaskOutput {
  /** A task begins (`activity`: what the status line says first). */
  start(status: TaskStatus, activity?: string): void;
  /** What is happening now, e.g. "running bash". */
  activity(text: string): void;
  /** The context use in tokens, as last estimated. */
  context(tokens: number): void;
  /** Streamed answer text from the model (unsanitized). */
  text(chunk: string): void;
  /** Streamed reasoning from the model (unsanitized), shown dim where shown at all. */
  reasoning(chunk: string): void;
  /** One or more finished, safe lines. */
  line(text: string): void;
  /**
   * The answer and reasoning streamed since the last line are abandoned (a retry streams its
   * own): a terminal takes them back, a pipe never writes them.
   */
  discard(): void;
  /**
   * Rows only a live terminal shows (a command's line count and last lines, an edit's
   * diff, the context use after a task); elsewhere `brief` instead, when given.
   */
  detail(rows: () => string[], brief?: string): void;
  /**
   * A row that stands until the next output (a retry): `row(width)` builds it at most
   * `width` columns wide.
   */
  notice(row: (width: number) => string): void;
  /** Live rows above the status line (a running command's output); [] removes them. */
  tail(rows: string[]): void;
  /** `row` cut to one line where a terminal would wrap it (mid-word); unchanged elsewhere. */
  fit(row: string): string;
  /**
   * Plain `text` as the rows to style one by one: word-wrapped on a terminal (rows after a
   * line's first start with `indent`), else whole.
   */
  wrap(text: string, indent?: string): string[];
  /** Columns available for a table: infinite where nothing wraps (a pipe), so nothing is cut. */
  width(): number;
  /** The task ended. */
  stop(): void;
  /**
   * A live terminal only: rows kept just above the status line while a task runs (the input
   * line), with the cursor at `cursor` among them.
   */
  dock?(rows: readonly string[], cursor?: { row: number; col: number }): void;
  /** A live terminal only: clears the screen and draws the live rows again (Ctrl+L). */
  clearScreen?(): void;
  /** A live terminal only: leaves the live rows as output, before the terminal is handed over. */
  release?(): void;
  /** A live terminal only: erases the live rows and draws none until `resume` (Ctrl+Z). */
  suspend?(): void;
  /** A live terminal only: after `suspend`, prints `header` (safe rows), then the live rows. */
  resume?(header: readonly string[]): void;
}
