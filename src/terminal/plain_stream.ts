/**
 * Streamed text shown as it is (no markdown), line by line: the same interface as
 * {@link MarkdownStream}, for a terminal without colours.
 *
 * @module
 */
import { OpenLine } from "./open_line.ts";
import { sanitize } from "./sanitize.ts";

/** A terminal's tab stops: every 8 columns. */
const TAB_STOP = 8;

/** Any streamed-text renderer: finished rows as lines complete, pending rows for the open one. */
export interface TextStream {
  push(text: string): string[];
  pending(): string[];
  end(): string[];
  setWidth(width: number): void;
}

/**
 * Text kept as written, only sanitized; complete lines are returned whole (the terminal
 * wraps them), the open line is broken at the width so it can be redrawn in place.
 * Contract: time linear in the text: a chunk costs its own length, and `pending` returns
 * at most the open line's last `PREVIEW_ROWS` rows.
 */
export class PlainStream implements TextStream {
  #open: OpenLine;

  /** A stream for a terminal `width` columns wide. */
  constructor(width: number) {
    this.#open = new OpenLine(width, TAB_STOP);
  }

  /** Adds text; returns the lines it completed. */
  push(text: string): string[] {
    const newline = text.lastIndexOf("\n");
    if (newline < 0) {
      this.#open.append(text);
      return [];
    }
    const done = sanitize(this.#open.take() + text.slice(0, newline + 1));
    this.#open.append(text.slice(newline + 1));
    return done.slice(0, -1).split("\n");
  }

  /** The open line, in rows of the width, tabs expanded as a terminal shows them. */
  pending(): string[] {
    return this.#open.rows();
  }

  /** The open line as a finished line, if any. */
  end(): string[] {
    const open = this.#open.take();
    return open === "" ? [] : [sanitize(open)];
  }

  /** Changes the width of pending rows. */
  setWidth(width: number): void {
    this.#open.setWidth(width);
  }
}
