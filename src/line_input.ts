/**
 * Line input for the REPL over node:readline: a queue of typed or piped lines,
 * EOF, and Ctrl+C from a terminal (raw mode) or a SIGINT signal (pipes, `kill`).
 *
 * @module
 */
import { createInterface, type Interface } from "node:readline";
import process from "node:process";

/** Two interrupts closer than this are one key press delivered twice (by the terminal and by `deno task`). */
const SAME_PRESS_MS = 300;

/** Reads lines; see `openLineInput`. */
export interface LineInput {
  /** The next line, or undefined at EOF (Ctrl+D, end of piped input, or `close()`). */
  next(prompt: string): Promise<string | undefined>;
  /** Text typed on the current prompt line and not yet submitted. */
  pendingText(): string;
  /** Erases the text typed on the current prompt line. */
  clearLine(): void;
  /** Drops lines entered while a task ran and not yet read (type-ahead). */
  discardQueued(): void;
  /** Ends input: a pending or later `next` returns undefined. */
  close(): void;
}

/**
 * Opens stdin for line input. `onInterrupt` runs once per Ctrl+C press.
 * Contract: lines that arrive while no `next` is pending are queued, never dropped.
 */
export function openLineInput(
  options: {
    terminal: boolean;
    onInterrupt: () => void;
    /** Earlier entries for Up, newest first (a resumed session's tasks). */
    history?: string[];
  },
): LineInput {
  const rl: Interface = createInterface({
    input: process.stdin,
    output: options.terminal ? process.stdout : undefined,
    terminal: options.terminal,
    history: options.history ?? [],
    historySize: 500,
    removeHistoryDuplicates: true,
  });
  const queue: string[] = [];
  let waiting: ((line: string | undefined) => void) | undefined;
  let closed = false;
  let lastInterrupt = 0;

  const interrupt = () => {
    const now = Date.now();
    if (now - lastInterrupt < SAME_PRESS_MS) return;
    lastInterrupt = now;
    options.onInterrupt();
  };
  const signalListener = () => interrupt();
  Deno.addSignalListener("SIGINT", signalListener);
  rl.on("SIGINT", interrupt);
  rl.on("line", (line: string) => {
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      resolve(line);
    } else queue.push(line);
  });
  rl.on("close", () => {
    closed = true;
    waiting?.(undefined);
    waiting = undefined;
  });

  return {
    next(prompt) {
      const queued = queue.shift();
      if (queued !== undefined) return Promise.resolve(queued);
      if (closed) return Promise.resolve(undefined);
      if (options.terminal) {
        rl.setPrompt(prompt);
        rl.prompt();
      }
      return new Promise((resolve) => waiting = resolve);
    },
    pendingText: () => options.terminal ? rl.line : "",
    clearLine() {
      if (!options.terminal) return;
      rl.write(null, { ctrl: true, name: "e" });
      rl.write(null, { ctrl: true, name: "u" });
    },
    discardQueued() {
      queue.length = 0;
    },
    close() {
      Deno.removeSignalListener("SIGINT", signalListener);
      if (!closed) rl.close();
      closed = true;
    },
  };
}
