/**
 * Output for pipes and files: the answer as the model wrote it (sanitized) and one
 * line per event, with no status line, no redrawing and no colours of its own.
 *
 * @module
 */
import { sanitize, type Writer } from "../terminal/mod.ts";
import type { TaskOutput, TaskStatus } from "./task_output.ts";

/** Pipes have no width: tables and cut lines are laid out for this many columns. */
const PIPE_COLUMNS = 80;

/**
 * Writes streamed answer text to `answer` and lines to `status` (which may be the same
 * writer); a line first ends an answer line left open.
 * Contract: control characters in answer text are shown visibly (a CR of a CR LF pair
 * split across chunks included, which is dropped like any CR before a newline).
 */
export class PlainOutput implements TaskOutput {
  #answer: Writer;
  #status: Writer;
  #midLine = false;
  #heldCr = false;

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
  wrap(text: string): string[] {
    return [text];
  }

  /** Nothing to show: reasoning stays off pipes and `-p` output. */
  reasoning(_chunk: string): void {}

  /** Pipes have no width: tables are laid out for 80 columns. */
  width(): number {
    return PIPE_COLUMNS;
  }

  /** Writes answer text as it comes, sanitized. */
  text(chunk: string): void {
    let text = this.#heldCr ? `\r${chunk}` : chunk;
    this.#heldCr = text.endsWith("\r");
    if (this.#heldCr) text = text.slice(0, -1);
    if (text === "") return;
    this.#answer(sanitize(text));
    this.#midLine = !text.endsWith("\n");
  }

  /** Writes `text` as whole lines after ending an open answer line. */
  line(text: string): void {
    this.#endAnswer();
    this.#status(`${text}\n`);
  }

  /** Ends an open answer line. */
  stop(): void {
    this.#endAnswer();
  }

  #endAnswer(): void {
    if (this.#heldCr) {
      this.#answer(sanitize("\r"));
      this.#midLine = true;
    }
    this.#heldCr = false;
    if (this.#midLine) this.#answer("\n");
    this.#midLine = false;
  }
}
