/**
 * The modes a run can be in, one table: the first whose flag the command line sets runs;
 * the REPL when none does.
 *
 * @module
 */
import type { RunStart } from "../app/mod.ts";
import type { CliOptions } from "../config/mod.ts";
import { replMode } from "./interactive.ts";
import { scopeMode, sessionsMode } from "./listings.ts";
import { printMode } from "./print.ts";
import { undoMode } from "./undo.ts";

/** One mode: whether the command line asks for it, and how it runs to an exit code. */
export interface Mode {
  chosen(cli: CliOptions): boolean;
  run(start: RunStart): Promise<number>;
}

/** The modes, in the order the command line's flags take precedence. */
export const MODES: readonly Mode[] = [
  { chosen: (cli) => cli.scope, run: scopeMode },
  { chosen: (cli) => cli.sessions || cli.chooseSession, run: sessionsMode },
  { chosen: (cli) => cli.undo, run: undoMode },
  { chosen: (cli) => cli.print !== undefined, run: printMode },
  { chosen: () => true, run: replMode },
];

/** The mode the command line asks for. */
export function modeFor(cli: CliOptions): Mode {
  return MODES.find((mode) => mode.chosen(cli)) ?? MODES[MODES.length - 1]!;
}

export { answerReport, type PrintReport, runPrint } from "./print.ts";
export { withPipedInput } from "./piped_input.ts";
export { undoFromShell } from "./undo.ts";
