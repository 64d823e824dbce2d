/**
 * The application: the one assembly, the REPL, print mode and piped input.
 *
 * @module
 */
export { approveOnTerminal } from "./approval_prompt.ts";
export { assemble, type Assembly } from "./assemble.ts";
export { Profiles } from "./profiles.ts";
export { withPipedInput } from "./piped_input.ts";
export { EXIT, exitCode } from "./exit_codes.ts";
export { answerReport, type PrintReport, runPrint } from "./print_task.ts";
export type { ReplOptions } from "./repl.ts";
export { scopeReport } from "./scope_report.ts";
export { undoFromShell } from "./undo_headless.ts";

/** Runs the REPL; its modules (line editor, completion) load only when there is a REPL. */
export async function runRepl(options: import("./repl.ts").ReplOptions): Promise<number> {
  const repl = await import("./repl.ts");
  return await repl.runRepl(options);
}
