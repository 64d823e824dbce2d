/**
 * The REPL's input on a terminal: the line editor on stdin in raw mode, with the
 * history file, Tab completion and redraw on resize.
 *
 * @module
 */
import type { LineInput } from "../line_input.ts";
import type { Completer } from "./completion.ts";
import { historyFile, InputHistory } from "./input_history.ts";
import { LineEditor } from "./line_editor.ts";
import { openTerminal } from "./terminal.ts";

/** How the terminal input behaves. */
export interface TerminalInputOptions {
  onInterrupt: () => void;
  color: boolean;
  /** Where history persists across runs (none: history lasts for this run). */
  historyFile?: string;
  complete?: Completer;
}

const HISTORY_LIMIT = 500;

/**
 * Opens the line editor on the process's terminal.
 * Contract: `close()` turns bracketed paste off and restores cooked mode.
 */
export async function openTerminalInput(options: TerminalInputOptions): Promise<LineInput> {
  const store = options.historyFile ? historyFile(options.historyFile, HISTORY_LIMIT) : undefined;
  const history = new InputHistory(store ? await store.load() : [], HISTORY_LIMIT);
  const terminal = openTerminal();
  const editor = new LineEditor({
    io: terminal,
    onInterrupt: options.onInterrupt,
    history,
    ...(store ? { onSubmit: (entry: string) => void store.append(entry) } : {}),
    ...(options.complete ? { complete: options.complete } : {}),
    color: options.color,
  });
  const stopResize = terminal.onResize(() => editor.resize());
  return {
    next: (prompt) => editor.next(prompt),
    pendingText: () => editor.pendingText(),
    clearLine: () => editor.clearLine(),
    notice: (text) => editor.notice(text),
    close() {
      stopResize();
      editor.close();
      terminal.close();
    },
  };
}
