/**
 * The process exit codes, one per way a run can end (the README's "Scripting" table).
 *
 * @module
 */
import type { TaskResult } from "../agent/mod.ts";

/** Exit codes by meaning. */
export const EXIT = {
  done: 0,
  /** The task failed: a provider or tool error. */
  failed: 1,
  /** Bad usage or configuration. */
  usage: 2,
  stepLimit: 3,
  budget: 4,
  /** Ctrl+C (SIGINT), as shells report a process killed by it: 128 + 2. */
  interrupted: 130,
} as const;

/** The exit code of a `-p` run whose task ended with `result`. */
export function exitCode(result: TaskResult): number {
  switch (result.status) {
    case "done":
      return EXIT.done;
    case "failed":
      return EXIT.failed;
    case "step_limit":
      return EXIT.stepLimit;
    case "budget":
      return EXIT.budget;
    case "interrupted":
      return EXIT.interrupted;
    default: {
      const unknown: never = result;
      throw new TypeError(`Cannot map result to an exit code: ${JSON.stringify(unknown)}`);
    }
  }
}
