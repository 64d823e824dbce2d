/**
 * Output for pipes and files: the answer as the model wrote it (sanitized) and one
 * line per event, with no status line, no redrawing and no colours of its own.
 *
 * @module
 */
import { sanitize, type Writer } from "../terminal/mod.ts";
import type { TaskOutput, TaskStatus } from "./task_output.ts";

/** A line that stands in for a live one (a retry) is cut to this many columns on a pipe. */
const PIPE_COLUMNS = 80;

/**
 * Writes answer text to `answer` once its reply is complete (a line follows it, or the task
 * ends), so an answer abandoned for a retry is never written, and lines to `status` (which may
 * be the same writer).
 * Contract: control characters in answer text are shown visibly (a CR before a newline is
 * dropped).
 */
export class PlainOutput implements TaskOutput {
  #answer: Writer;
  #status: Writer;
  /** The answer of the reply streaming now, held until it is complete. */
  #pending: string[] = [];

  /** Output to `writers.answer` and `writers.status`. */
  constructor(writers: { answer: Writer; status: Writer }) {
    this.#answer = writers.answer;
    this.#status = writers.status;
  }

  /** Nothing to show for a task's start on a pipe. */
  start(_status: TaskStatus, _activity?: string): void {}

  /** Nothing to show: no status line on a pipe. */
  activity(_text: string): void {}

  /** Nothing to show: no status line on a pipe. */
  context(_tokens: number): void {}

  /** Nothing to show: no live rows on a pipe. */
  tail(_rows: string[]): void {}

  /** Only `brief`, if any: the details are for a live terminal. */
  detail(_rows: () => string[], brief?: string): void {
    if (brief !== undefined) this.line(brief);
  }

  /** A line like any other: nothing on a pipe is redrawn. */
  notice(row: (width: number) => string): void {
    this.line(row(PIPE_COLUMNS));
  }

  /** `row` unchanged: a pipe does not wrap. */
  fit(row: string): string {
    return row;
  }

  /** `text` whole: a pipe does not wrap. */
  wrap(text: string, _indent?: string): string[] {
    return [text];
  }

  /** Nothing to show: reasoning stays off pipes and `-p` output. */
  reasoning(_chunk: string): void {}

  /** Pipes have no width: tables and lists are printed whole, never cut. */
  width(): number {
    return Number.POSITIVE_INFINITY;
  }

  /** Holds answer text until its reply is complete. */
  text(chunk: string): void {
    this.#pending.push(chunk);
  }

  /** Drops the answer held: a retry streams its own. */
  discard(): void {
    this.#pending = [];
  }

  /** Writes `text` as whole lines after the answer held, if any. */
  line(text: string): void {
    this.#endAnswer();
    this.#status(`${text}\n`);
  }

  /** Writes the answer held, if any. */
  stop(): void {
    this.#endAnswer();
  }

  #endAnswer(): void {
    const text = this.#pending.join("");
    this.#pending = [];
    if (text === "") return;
    this.#answer(sanitize(text));
    if (!text.endsWith("\n")) this.#answer("\n");
  }
}
