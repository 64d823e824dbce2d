/**
 * Where the renderer writes: on a terminal a live view (status line, markdown when in
 * colour, redrawn on resize); otherwise plain lines (to stderr besides the answer for -p).
 *
 * @module
 */
import type { Redactor } from "../config/mod.ts";
import { terminalColumns, terminalRows, writeTo } from "../terminal/mod.ts";
import { PlainOutput } from "./plain_output.ts";
import type { TaskOutput } from "./task_view.ts";

/** How {@linkcode createOutput} chooses and sets up the output. */
export interface OutputOptions {
  /** Stdout is a terminal and the session is interactive. */
  screen: boolean;
  color: boolean;
  interactive: boolean;
  redactor: Redactor;
  fullReasoning: boolean;
}

/** Creates the task output for this process's stdout and stderr. */
export async function createOutput(options: OutputOptions): Promise<TaskOutput> {
  const { redactor } = options;
  if (!options.screen) {
    return new PlainOutput({
      answer: redactor.streaming(writeTo(Deno.stdout)),
      status: redactor.wrap(writeTo(options.interactive ? Deno.stdout : Deno.stderr)),
    });
  }
  // The live view (markdown, status line) loads only on a terminal.
  const { TaskView } = await import("./task_view.ts");
  const view = new TaskView({
    io: {
      write: redactor.wrap(writeTo(Deno.stdout)),
      columns: terminalColumns,
      rows: terminalRows,
    },
    color: options.color,
    markdown: options.color,
    reasoning: options.fullReasoning ? "full" : "collapsed",
  });
  Deno.addSignalListener("SIGWINCH", () => view.resize());
  return view;
}
