/**
 * The modes a run can be in, one table: the first whose flag the command line sets runs;
 * the REPL when none does. Each mode's module is loaded when it is chosen, so a run loads
 * only its own (a `-p` run no line editor, the REPL no JSON report).
 *
 * @module
 */
import type { RunStart } from "../app/mod.ts";
import type { CliOptions } from "../config/mod.ts";

/** One mode: whether the command line asks for it, and how it runs to an exit code. */
export interface Mode {
  chosen(cli: CliOptions): boolean;
  run(start: RunStart): Promise<number>;
}

/** The modes, in the order the command line's flags take precedence. */
export const MODES: readonly Mode[] = [
  { chosen: (cli) => cli.scope, run: async (start) => (await listings()).scopeMode(start) },
  {
    chosen: (cli) => cli.sessions || cli.chooseSession,
    run: async (start) => (await listings()).sessionsMode(start),
  },
  {
    chosen: (cli) => cli.undo,
    run: async (start) => (await import("./undo.ts")).undoMode(start),
  },
  {
    chosen: (cli) => cli.bundle !== undefined,
    run: async (start) => (await import("./bundle.ts")).bundleMode(start),
  },
  {
    chosen: (cli) => cli.replay !== undefined,
    run: async (start) => (await import("./replay.ts")).replayMode(start),
  },
  {
    chosen: (cli) => cli.print !== undefined,
    run: async (start) => (await import("./print.ts")).printMode(start),
  },
  { chosen: () => true, run: async (start) => (await import("./interactive.ts")).replMode(start) },
];

/** The mode the command line asks for. */
export function modeFor(cli: CliOptions): Mode {
  return MODES.find((mode) => mode.chosen(cli)) ?? MODES[MODES.length - 1]!;
}

function listings(): Promise<typeof import("./listings.ts")> {
  return import("./listings.ts");
}

export type { PrintReport } from "./print.ts";
