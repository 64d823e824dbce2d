/**
 * The REPL's input on a terminal: the line editor on stdin in raw mode, with the
 * history file, Tab completion and redraw on resize.
 *
 * @module
 */
import type { LineInput } from "./line_source.ts";
import type { Completer } from "./completion.ts";
import { historyFile, InputHistory } from "./input_history.ts";
import { LineEditor } from "./line_editor.ts";
import { openTerminal } from "../terminal/mod.ts";

/** How the terminal input behaves. */
export interface TerminalInputOptions {
  onInterrupt: () => void;
  color: boolean;
  /** Where history persists across runs (none: history lasts for this run). */
  historyFile?: string;
  /** Applied to each entry before it is written to the history file (secrets). */
  redact?: (text: string) => string;
  /** Entries to recall besides the file's, oldest first (a resumed session's tasks). */
  earlier?: string[];
  complete?: Completer;
}

const HISTORY_LIMIT = 500;

/**
 * Opens the line editor on the process's terminal.
 * Contract: `close()` turns bracketed paste off and restores cooked mode.
 */
export async function openTerminalInput(options: TerminalInputOptions): Promise<LineInput> {
  const store = options.historyFile ? historyFile(options.historyFile, HISTORY_LIMIT) : undefined;
  const stored = store ? await store.load() : [];
  const known = new Set(stored);
  const earlier = (options.earlier ?? []).filter((entry) => !known.has(entry));
  const history = new InputHistory([...earlier, ...stored], HISTORY_LIMIT);
  const terminal = openTerminal();
  const editor = new LineEditor({
    io: terminal,
    onInterrupt: options.onInterrupt,
    history,
    ...(store
      ? { onSubmit: (entry: string) => void store.append(options.redact?.(entry) ?? entry) }
      : {}),
    ...(options.complete ? { complete: options.complete } : {}),
    color: options.color,
  });
  const stopResize = terminal.onResize(() => editor.resize());
  return {
    next: (prompt) => editor.next(prompt),
    pendingText: () => editor.pendingText(),
    clearLine: () => editor.clearLine(),
    fill: (text) => editor.fill(text),
    discardQueued: () => editor.discardTypeAhead(),
    notice: (text) => editor.notice(text),
    close() {
      stopResize();
      editor.close();
      terminal.close();
    },
  };
}
