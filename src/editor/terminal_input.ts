/**
 * The REPL's input on a terminal: the line editor on stdin in raw mode, with the
 * history file, Tab completion and redraw on resize.
 *
 * @module
 */
import type { LineInput } from "./line_source.ts";
import type { PaletteEntry } from "./command_palette.ts";
import type { Completer } from "./completion.ts";
import { historyFile, InputHistory } from "./input_history.ts";
import { LineEditor } from "./line_editor.ts";
import {
  attentionBytes,
  type AttentionStyle,
  openTerminal,
  type Terminal,
} from "../terminal/mod.ts";

/** How the terminal input behaves. */
export interface TerminalInputOptions {
  onInterrupt: () => void;
  /** Shift+Tab (cycles the approval mode); nothing without. */
  onShiftTab?: () => void;
  color: boolean;
  /** Where history persists across runs (none: history lasts for this run). */
  historyFile?: string;
  /** Applied to each entry before it is written to the history file (secrets). */
  redact?: (text: string) => string;
  /** Entries to recall besides the file's, oldest first (a resumed session's tasks). */
  earlier?: string[];
  complete?: Completer;
  /** The commands the palette lists (a `/` typed into an empty input opens it). */
  palette?: () => readonly PaletteEntry[];
  /** Stops the program until it is continued (Ctrl+Z); without it Ctrl+Z does nothing. */
  stopProgram?: () => Promise<void>;
  /** What else is drawn live (a task's rows): erased before the program stops, drawn after. */
  live?: LiveRows;
  /** The terminal to read keys from and draw on (default: the process's, in raw mode). */
  terminal?: Terminal;
  /** How to call the user back while the terminal has no focus (default: never). */
  attention?: AttentionStyle;
}

/** Rows drawn live besides the input, which Ctrl+Z must not leave behind. */
export interface LiveRows {
  /** Erases them; none are drawn until `resume`. */
  suspend(): void;
  /** Draws them again (after `fg`). */
  resume(): void;
}

const HISTORY_LIMIT = 500;

/** The signals that end the program; it leaves with 128 plus the signal's number. */
const EXIT_SIGNALS = [["SIGTERM", 15], ["SIGHUP", 1]] as const;

/**
 * Opens the line editor on the process's terminal. Ctrl+Z (or SIGTSTP) suspends the program:
 * what is drawn live is erased and cooked mode restored; on `fg` raw mode comes back and the
 * input is drawn again. SIGTERM and SIGHUP end it after the terminal is restored.
 * Contract: `close()` turns bracketed paste off and restores cooked mode; so does every end
 * by SIGTERM or SIGHUP, which exits with code 143 or 129.
 */
export async function openTerminalInput(options: TerminalInputOptions): Promise<LineInput> {
  const store = options.historyFile ? historyFile(options.historyFile, HISTORY_LIMIT) : undefined;
  const stored = store ? await store.load() : [];
  const known = new Set(stored);
  const earlier = (options.earlier ?? []).filter((entry) => !known.has(entry));
  const history = new InputHistory([...earlier, ...stored], HISTORY_LIMIT);
  const terminal = options.terminal ?? openTerminal();
  const attention = options.attention ?? "off";
  const editor = new LineEditor({
    io: terminal,
    onInterrupt: options.onInterrupt,
    ...(options.onShiftTab ? { onShiftTab: options.onShiftTab } : {}),
    history,
    ...(store
      ? { onSubmit: (entry: string) => void store.append(options.redact?.(entry) ?? entry) }
      : {}),
    ...(options.complete ? { complete: options.complete } : {}),
    ...(options.palette ? { palette: options.palette } : {}),
    color: options.color,
    ...(options.stopProgram ? { onSuspend: () => suspend(options.stopProgram) } : {}),
    trackFocus: attention !== "off",
  });
  let suspended = false;
  const suspend = (stop: (() => Promise<void>) | undefined) => {
    if (!stop || suspended) return;
    suspended = true;
    options.live?.suspend();
    editor.suspend();
    void terminal.suspend(stop).then(() => {
      suspended = false;
      editor.resume();
      options.live?.resume();
    });
  };
  const stopResize = terminal.onResize(() => editor.resize());
  // SIGTSTP from outside (`kill -TSTP`) suspends as Ctrl+Z does, never in raw mode.
  const onStop = () => suspend(options.stopProgram);
  if (options.stopProgram) Deno.addSignalListener("SIGTSTP", onStop);
  const exits = EXIT_SIGNALS.map(([signal, number]) => {
    const listener = () => {
      // The terminal may be gone (SIGHUP): restoring it is all that can be done.
      try {
        editor.pause();
        editor.close();
      } finally {
        terminal.close();
        Deno.exit(128 + number);
      }
    };
    Deno.addSignalListener(signal, listener);
    return () => Deno.removeSignalListener(signal, listener);
  });
  return {
    next: (prompt) => editor.next(prompt),
    pendingText: () => editor.pendingText(),
    clearLine: () => editor.clearLine(),
    fill: (text) => editor.fill(text),
    discardQueued: () => editor.discardTypeAhead(),
    notice: (text) => editor.notice(text),
    announce: (text) => editor.announce(text),
    lastShown: () => editor.lastShown(),
    busy: (handlers) => editor.busy(handlers),
    restore: (text) => editor.restore(text),
    attention(text) {
      if (!editor.focused) terminal.write(attentionBytes(attention, text));
    },
    close() {
      stopResize();
      if (options.stopProgram) Deno.removeSignalListener("SIGTSTP", onStop);
      for (const stop of exits) stop();
      editor.close();
      terminal.close();
    },
  };
}
