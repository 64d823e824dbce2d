/**
 * Line input for the REPL: on a terminal, powercode's own line editor (raw mode,
 * bracketed paste, history file, completion, type-ahead); on piped stdin, a queue of
 * lines over node:readline. Ctrl+C arrives as a key (raw mode) or a SIGINT signal
 * (pipes, `kill`).
 *
 * @module
 */
import { createInterface, type Interface } from "node:readline";
import process from "node:process";
import type { PaletteEntry } from "./command_palette.ts";
import type { Completer } from "./completion.ts";
import type { LineInput } from "./line_source.ts";
import { type LiveRows, openTerminalInput } from "./terminal_input.ts";
import type { AttentionStyle, Terminal } from "../terminal/mod.ts";

export type { LineInput };

/** Two interrupts closer than this are one key press delivered twice (by the terminal and by `deno task`). */
const SAME_PRESS_MS = 300;

/** How to open input. */
export interface LineInputOptions {
  /** stdin is a terminal: use the line editor. */
  terminal: boolean;
  /** Runs once per Ctrl+C press. */
  onInterrupt: () => void;
  /** Where `notice` writes on piped stdin. */
  write: (text: string) => void;
  /** Shift+Tab on the terminal (cycles the approval mode). */
  onShiftTab?: () => void;
  /** For the line editor: colours, the history file, Tab completion, Ctrl+Z. */
  editor?: {
    color: boolean;
    historyFile?: string;
    complete?: Completer;
    palette?: () => readonly PaletteEntry[];
    redact?: (text: string) => string;
    stopProgram?: () => Promise<void>;
    /** Rows drawn live besides the input (a task's): erased for Ctrl+Z, drawn after `fg`. */
    live?: LiveRows;
    /** The terminal to read keys from and draw on (default: the process's). */
    terminal?: Terminal;
    /** How to call the user back while the terminal has no focus (default: never). */
    attention?: AttentionStyle;
  };
  /** Earlier entries for Up, newest first (a resumed session's tasks). */
  history?: string[];
}

/**
 * Opens stdin for line input.
 * Contract: lines that arrive while no `next` is pending are queued, never dropped.
 */
export async function openLineInput(options: LineInputOptions): Promise<LineInput> {
  let lastInterrupt = 0;
  const interrupt = () => {
    const now = Date.now();
    if (now - lastInterrupt < SAME_PRESS_MS) return;
    lastInterrupt = now;
    options.onInterrupt();
  };
  Deno.addSignalListener("SIGINT", interrupt);
  const input = options.terminal
    ? await openTerminalInput({
      ...options.editor ?? { color: false },
      onInterrupt: interrupt,
      ...(options.onShiftTab ? { onShiftTab: options.onShiftTab } : {}),
      ...(options.history ? { earlier: [...options.history].reverse() } : {}),
    })
    : openPipedInput(interrupt, options.write);
  return {
    ...input,
    close() {
      Deno.removeSignalListener("SIGINT", interrupt);
      input.close();
    },
  };
}

function openPipedInput(interrupt: () => void, write: (text: string) => void): LineInput {
  const rl: Interface = createInterface({ input: process.stdin, terminal: false });
  const queue: string[] = [];
  let waiting: ((line: string | undefined) => void) | undefined;
  let closed = false;
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
    next() {
      const queued = queue.shift();
      if (queued !== undefined) return Promise.resolve(queued);
      if (closed) return Promise.resolve(undefined);
      return new Promise((resolve) => waiting = resolve);
    },
    pendingText: () => "",
    clearLine() {},
    fill() {},
    discardQueued() {
      queue.length = 0;
    },
    notice: (text) => write(`${text}\n`),
    announce: (text) => write(`${text}\n`),
    close() {
      if (!closed) rl.close();
      closed = true;
    },
    lastShown: () => undefined,
    busy: () => () => {},
    restore() {},
    attention() {},
  };
}
