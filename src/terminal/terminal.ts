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
   * Stops the program as Ctrl+Z does in a shell, the terminal in cooked mode meanwhile;
   * resolves once it runs again (`fg`), back in raw mode.
   */
  suspend(): Promise<void>;
  /** Leaves raw mode. */
  close(): void;
}

const FALLBACK_COLUMNS = 80;
const FALLBACK_ROWS = 24;
/** How long a stop may take to be reported as continued, once the stopping shell has ended. */
const CONTINUE_GRACE_MS = 250;

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
    async suspend() {
      if (closed) return;
      Deno.stdin.setRaw(false);
      try {
        await stopProcessGroup();
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

/**
 * Stops this process's whole group, as the terminal's Ctrl+Z does in cooked mode, so that
 * the shell sees its job stopped; resolves once it continues (`fg` sends SIGCONT).
 * Deno signals another process group only with an unscoped run permission, so a shell does
 * it: `bash -c 'kill -STOP 0'` runs in the group (no input, no output) and stops with it.
 * SIGSTOP, not SIGTSTP: `deno task` forwards SIGTSTP to its child instead of stopping, and
 * the shell would then never learn that its job stopped.
 * Contract: never throws; when bash cannot run, nothing stops.
 */
async function stopProcessGroup(): Promise<void> {
  let continued: () => void = () => {};
  const resumed = new Promise<void>((resolve) => continued = resolve);
  Deno.addSignalListener("SIGCONT", continued);
  try {
    const stop = new Deno.Command("bash", {
      args: ["-c", "kill -STOP 0"],
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    });
    await stop.output();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      resumed,
      new Promise((resolve) => timer = setTimeout(resolve, CONTINUE_GRACE_MS)),
    ]);
    clearTimeout(timer);
  } catch {
    // No bash to run: the program goes on where it was.
  } finally {
    Deno.removeSignalListener("SIGCONT", continued);
  }
}
