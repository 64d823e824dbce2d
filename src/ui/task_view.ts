/**
 * The terminal screen while a task runs: the streamed answer (markdown or plain),
 * permanent lines for tool work, live rows (a running command's output), and the
 * status line at the bottom, all redrawn in place.
 *
 * @module
 */
import {
  createTheme,
  type LiveRegion,
  loadLiveView,
  type RegionCursor,
  type RegionIo,
  type TextStream,
  type Theme,
  truncateWidth,
  wrapHanging,
} from "../terminal/mod.ts";
import { ReasoningView } from "./reasoning_view.ts";
import { formatStatusLine } from "./status_line.ts";
import type { TaskOutput, TaskStatus } from "./task_output.ts";

const live = await loadLiveView();

/** How the view draws. */
export interface TaskViewOptions {
  io: RegionIo & { rows?: () => number };
  color: boolean;
  /** Render answers as markdown; otherwise as plain text, line by line. */
  markdown: boolean;
  /** Milliseconds now; tests pass a fake clock. */
  now?: () => number;
  /** Redraw interval for spinner and time; 0 for none (tests call `tick()`). */
  tickMs?: number;
  /**
   * `collapsed` (default): reasoning streams dim in a few live rows, then stays on screen
   * as one line (`thinking… 12 s`) once the answer starts; `full`: every row is kept.
   */
  reasoning?: "collapsed" | "full";
}

/**
 * Streamed text redraws the live rows at most once in this many milliseconds while the
 * timer runs (its next tick draws what came meanwhile): a fast stream of small chunks
 * then costs the text's own length, not a redraw per chunk.
 */
const FRAME_MS = 40;

const DEFAULT_ROWS = 24;

/**
 * One view per terminal. Between tasks it prints lines as they come; during a task
 * (`start` … `stop`) it keeps the status line and live rows below everything printed.
 * Contract: all outside text given to it is sanitized by the streams; lines given to
 * `line` must already be safe (built by powercode from sanitized parts).
 */
export class TaskView implements TaskOutput {
  #options: TaskViewOptions;
  #theme: Theme;
  #region: LiveRegion;
  #stream: TextStream | undefined;
  #reasoning: ReasoningView | undefined;
  #status: (TaskStatus & { activity: string; started: number }) | undefined;
  #tail: string[] = [];
  /** Rows between the live rows and the status line (the input line while a task runs). */
  #dock: { rows: readonly string[]; cursor?: RegionCursor | undefined } = { rows: [] };
  #timer: ReturnType<typeof setInterval> | undefined;
  #drawnAt = -Infinity;
  /** Answer or reasoning of the reply streaming now was shown: a retry takes it back. */
  #attempt = false;
  /** The terminal is another program's (Ctrl+Z): no live rows are drawn. */
  #suspended = false;

  /** A view drawing through `options.io`. */
  constructor(options: TaskViewOptions) {
    this.#options = options;
    this.#theme = createTheme(options.color);
    this.#region = new live.LiveRegion(options.io);
  }

  /** Shows the status line (spinner, time, hint, context, model) until `stop`. */
  start(status: TaskStatus, activity = "thinking"): void {
    this.#suspended = false;
    this.#status = { ...status, activity, started: this.#now() };
    const tickMs = this.#options.tickMs ?? 80;
    if (tickMs > 0) this.#timer ??= setInterval(() => this.tick(), tickMs);
    this.#redraw();
  }

  /** Changes what the status line says is happening, e.g. "running bash". */
  activity(text: string): void {
    if (this.#status) this.#status.activity = text;
    this.#redraw();
  }

  /** Updates the context use the status line shows. */
  context(tokens: number): void {
    if (this.#status) this.#status.contextTokens = tokens;
    this.#redraw();
  }

  /** Adds streamed answer text: finished rows are printed, the open line stays live. */
  text(chunk: string): void {
    this.#beginAttempt();
    const reasoning = this.#endReasoning();
    this.#stream ??= this.#newStream();
    const rows = [...reasoning, ...this.#stream.push(chunk)];
    if (rows.length > 0) this.#print(rows);
    else this.#redrawSoon();
  }

  /** Adds streamed reasoning, dim and as written; it ends when the answer or a line comes. */
  reasoning(chunk: string): void {
    this.#beginAttempt();
    const mode = this.#options.reasoning ?? "collapsed";
    this.#reasoning ??= new ReasoningView(mode, this.#theme, this.#now());
    const rows = this.#reasoning.push(chunk, this.#rowWidth());
    if (rows.length > 0) return this.#print(rows);
    this.#redrawSoon();
  }

  /** Ends the answer so far and prints `line` (one or more safe lines) below it. */
  line(line: string): void {
    this.#endAttempt();
    this.#print([...this.#endReasoning(), ...this.#endAnswer(), ...line.split("\n")]);
  }

  /**
   * Takes back the answer and reasoning of the reply streaming now: erased from the screen
   * while all of it is still there, else a dim line says that the text above was discarded.
   */
  discard(): void {
    this.#stream = undefined;
    this.#reasoning = undefined;
    if (!this.#attempt) return this.#redraw();
    this.#attempt = false;
    const height = this.#options.io.rows?.() ?? DEFAULT_ROWS;
    const live = this.#liveRows();
    if (this.#region.retract(height, live.rows, live.cursor)) return;
    this.#print([this.#theme.dim("(the partial answer above was discarded)")]);
  }

  /**
   * Rows shown just above the status line until the task ends, e.g. the input line, with the
   * cursor resting at `cursor` among them; [] removes them.
   */
  dock(rows: readonly string[], cursor?: RegionCursor): void {
    this.#dock = { rows, cursor };
    this.#redraw();
  }

  /** Clears the screen (Ctrl+L) and draws the live rows again at its top. */
  clearScreen(): void {
    this.#region.clearScreen();
  }

  /**
   * Leaves the live rows on screen as plain output and moves below them, before the terminal
   * goes to another program (Ctrl+Z); the next draw starts afresh there.
   */
  release(): void {
    this.#region.release();
  }

  /**
   * Erases the live rows before the terminal goes to another program for a while (Ctrl+Z);
   * until `resume`, lines still print but no live rows are drawn.
   */
  suspend(): void {
    this.#suspended = true;
    this.#region.clear();
  }

  /** Takes the terminal back after `suspend`: prints `header`, then draws the live rows. */
  resume(header: readonly string[]): void {
    if (!this.#suspended) return;
    this.#suspended = false;
    this.#print([...header]);
  }

  /** Live rows above the status line, e.g. a running command's last lines; [] removes them. */
  tail(rows: string[]): void {
    this.#tail = rows;
    this.#redraw();
  }

  /** Prints the rows, if any. */
  detail(rows: () => string[], _brief?: string): void {
    const shown = rows();
    if (shown.length > 0) this.line(shown.join("\n"));
  }

  /** Shows the row in place of the live rows until they change. */
  notice(row: (width: number) => string): void {
    this.tail([row(this.#rowWidth())]);
  }

  /** `row` cut to the width, so that the terminal never wraps it. */
  fit(row: string): string {
    return truncateWidth(row, this.#rowWidth());
  }

  /**
   * Each line of `text` word-wrapped to the width (the terminal would break words), its rows
   * after the first starting with `indent`.
   */
  wrap(text: string, indent = ""): string[] {
    return text.split("\n").flatMap((line) => wrapHanging(line, this.#rowWidth(), indent));
  }

  /** The terminal's width. */
  width(): number {
    return this.#options.io.columns();
  }

  /** Redraws for the current width (after a terminal resize). */
  resize(): void {
    this.#stream?.setWidth(this.#options.io.columns());
    this.#redraw();
  }

  /** Redraws the status line (the spinner moves, the time goes on). */
  tick(): void {
    this.#redraw();
  }

  /** Ends the task: prints the rest of the answer and removes the live rows. */
  stop(): void {
    this.#suspended = false;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#status = undefined;
    this.#tail = [];
    this.#dock = { rows: [] };
    this.#endAttempt();
    this.#print([...this.#endReasoning(), ...this.#endAnswer()]);
    this.#region.clear();
  }

  /** The first answer or reasoning of a reply: from here on, what is printed can be taken back. */
  #beginAttempt(): void {
    if (this.#attempt) return;
    this.#attempt = true;
    this.#region.mark();
  }

  /** The reply's text is complete (a line follows it, or the task ends): it stays. */
  #endAttempt(): void {
    this.#attempt = false;
    this.#region.unmark();
  }

  #endReasoning(): string[] {
    const rows = this.#reasoning?.end(this.#rowWidth(), this.#now()) ?? [];
    this.#reasoning = undefined;
    return rows;
  }

  #endAnswer(): string[] {
    const rows = this.#stream?.end() ?? [];
    this.#stream = undefined;
    return rows;
  }

  #print(rows: string[]): void {
    const text = rows.map((row) => `${row}\r\n`).join("");
    if (text === "") return this.#redraw();
    this.#drawnAt = this.#now();
    const live = this.#liveRows();
    this.#region.print(text, live.rows, live.cursor);
  }

  #redraw(): void {
    this.#drawnAt = this.#now();
    const live = this.#liveRows();
    this.#region.set(live.rows, live.cursor);
  }

  /** Redraws now, or leaves it to the next tick when the last draw was under a frame ago. */
  #redrawSoon(): void {
    if (this.#timer !== undefined && this.#now() - this.#drawnAt < FRAME_MS) return;
    this.#redraw();
  }

  /** The live rows, at most what the screen holds, and where the cursor rests among them. */
  #liveRows(): { rows: string[]; cursor?: RegionCursor } {
    if (this.#suspended) return { rows: [] };
    const columns = this.#options.io.columns();
    const status = this.#status;
    const rows = [
      ...this.#reasoning?.preview(this.#rowWidth()) ?? [],
      ...(this.#stream?.pending() ?? []),
      ...this.#tail,
    ];
    const dock = this.#dock;
    const cursorRow = dock.cursor ? rows.length + dock.cursor.row : undefined;
    rows.push(...dock.rows);
    if (status) {
      const elapsedMs = this.#now() - status.started;
      const marks = status.marks?.() ?? [];
      rows.push(formatStatusLine({ ...status, marks, elapsedMs }, columns - 1, this.#theme));
    }
    const room = Math.max(1, (this.#options.io.rows?.() ?? DEFAULT_ROWS) - 2);
    const cut = Math.max(0, rows.length - room);
    const row = cursorRow === undefined ? -1 : cursorRow - cut;
    return {
      rows: rows.slice(cut),
      ...(row >= 0 && dock.cursor ? { cursor: { row, col: dock.cursor.col } } : {}),
    };
  }

  #newStream(): TextStream {
    const width = this.#options.io.columns();
    return this.#options.markdown
      ? new live.MarkdownStream({ width, color: this.#options.color })
      : new live.PlainStream(width);
  }

  /** Rows stay one column short of the width (the live region's rule). */
  #rowWidth(): number {
    return this.#options.io.columns() - 1;
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }
}
