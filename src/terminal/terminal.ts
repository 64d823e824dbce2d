/**
 * The real terminal for the line editor and the live region: stdin in raw mode,
 * synchronous writes to stdout, the width, and resize notifications.
 *
 * @module
 */
import { writeTo } from "./write_all.ts";
/** The terminal, as a line editor uses it. */
export interface TerminalIo {
  /** Byte chunks from the terminal in raw mode; the end of input counts as Ctrl+D. */
  input: AsyncIterable<Uint8Array>;
  write: (text: string) => void;
  /** Current width in columns. */
  columns: () => number;
}

/** The process's terminal; `close()` restores cooked mode. */
export interface Terminal extends TerminalIo {
  /** Calls `listener` after each resize; returns a function that stops it. */
  onResize(listener: () => void): () => void;
  /**
   * Leaves raw mode while `stop` stops the program (as Ctrl+Z does in a shell) and until it
   * runs again (`fg`), then goes back to raw mode.
   */
  suspend(stop: () => Promise<void>): Promise<void>;
  /** Leaves raw mode. */
  close(): void;
}

const FALLBACK_COLUMNS = 80;
const FALLBACK_ROWS = 24;

/**
 * Puts stdin (a terminal) into raw mode and returns it with stdout for output.
 * Contract: `close()` is safe to call more than once and also when stdin has gone.
 */
export function openTerminal(): Terminal {
  Deno.stdin.setRaw(true);
  let closed = false;
  return {
    input: Deno.stdin.readable,
    write: writeTo(Deno.stdout),
    columns: terminalColumns,
    onResize(listener) {
      Deno.addSignalListener("SIGWINCH", listener);
      return () => Deno.removeSignalListener("SIGWINCH", listener);
    },
    async suspend(stop) {
      if (closed) return;
      Deno.stdin.setRaw(false);
      try {
        await stop();
      } finally {
        if (!closed) Deno.stdin.setRaw(true);
      }
    },
    close() {
      if (closed) return;
      closed = true;
      try {
        Deno.stdin.setRaw(false);
      } catch {
        // stdin is already gone: nothing to restore.
      }
    },
  };
}

/** The terminal's width in columns (80 when no standard stream is a terminal). */
export function terminalColumns(): number {
  try {
    return Deno.consoleSize().columns || FALLBACK_COLUMNS;
  } catch {
    return FALLBACK_COLUMNS;
  }
}

/** The terminal's height in rows (24 when no standard stream is a terminal). */
export function terminalRows(): number {
  try {
    return Deno.consoleSize().rows || FALLBACK_ROWS;
  } catch {
    return FALLBACK_ROWS;
  }
}
