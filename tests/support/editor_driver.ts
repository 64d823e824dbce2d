/**
 * Runs the line editor on the real terminal, for tmux tests of the editor alone:
 * each submitted line is reported as `got N chars, M lines: <first 40 chars>`;
 * the line `busy` simulates a 3 s task (for type-ahead). Ctrl+D ends it.
 * Usage: deno run --allow-read --allow-write editor_driver.ts HISTORY_FILE
 *
 * @module
 */
import { createCompleter } from "../../src/editor/completion.ts";
import { historyFile, InputHistory } from "../../src/editor/input_history.ts";
import { LineEditor } from "../../src/editor/line_editor.ts";
import { sanitizeLine } from "../../src/terminal/sanitize.ts";
import { openTerminal } from "../../src/terminal/terminal.ts";

const store = historyFile(Deno.args[0] ?? ".history", 500);
const terminal = openTerminal();
let busy = false;
const editor = new LineEditor({
  io: terminal,
  onInterrupt: () => terminal.write(busy ? "interrupted\n" : ""),
  history: new InputHistory(await store.load(), 500),
  onSubmit: (entry) => void store.append(entry),
  complete: createCompleter({ commands: ["/help", "/clear", "/compact", "/context"] }),
  color: true,
});
const stopResize = terminal.onResize(() => editor.resize());
for (;;) {
  const line = await editor.next("> ");
  if (line === undefined) break;
  const lines = line.split("\n").length;
  terminal.write(
    `got ${[...line].length} chars, ${lines} lines: ${sanitizeLine(line.slice(0, 40))}\n`,
  );
  if (line === "busy") {
    busy = true;
    await new Promise((resolve) => setTimeout(resolve, 3000));
    busy = false;
    terminal.write("done\n");
  }
}
stopResize();
editor.close();
terminal.close();
Deno.exit(0);
