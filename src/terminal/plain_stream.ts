/**
 * Streamed text shown as it is (no markdown), line by line: the same interface as
 * {@link MarkdownStream}, for a terminal without colours.
 *
 * @module
 */
import { sanitize } from "./sanitize.ts";
import { breakText } from "./wrap.ts";

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
 */
export class PlainStream implements TextStream {
  #open = "";
  #width: number;

  /** A stream for a terminal `width` columns wide. */
  constructor(width: number) {
    this.#width = width;
  }

  /** Adds text; returns the lines it completed. */
  push(text: string): string[] {
    this.#open += text;
    const newline = this.#open.lastIndexOf("\n");
    if (newline < 0) return [];
    const done = sanitize(this.#open.slice(0, newline + 1));
    this.#open = this.#open.slice(newline + 1);
    return done.slice(0, -1).split("\n");
  }

  /** The open line, in rows of the width. */
  pending(): string[] {
    return this.#open === "" ? [] : breakText(expandTabs(sanitize(this.#open)), this.#width);
  }

  /** The open line as a finished line, if any. */
  end(): string[] {
    const open = this.#open;
    this.#open = "";
    return open === "" ? [] : [sanitize(open)];
  }

  /** Changes the width of pending rows. */
  setWidth(width: number): void {
    this.#width = width;
  }
}

/** Tabs as spaces to the next multiple of 8 columns, as a terminal shows them (ASCII-exact). */
function expandTabs(text: string): string {
  return text.replace(/[^\t]*\t/g, (run) => {
    const head = run.slice(0, -1);
    return head + " ".repeat(8 - (head.length % 8));
  });
}
