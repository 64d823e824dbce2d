/**
 * The one-shot mode (`-p`): one task, reported as the final answer on stdout or as JSON,
 * SIGINT stops it; the exit code says how it ended.
 *
 * @module
 */
import type { Agent, TaskResult } from "../agent/mod.ts";
import { sanitize } from "../terminal/mod.ts";
import type { Renderer } from "../ui/mod.ts";
import { exitCode } from "./exit_codes.ts";
import type { TaskUndo } from "../undo/mod.ts";
import { runBetweenSnapshots } from "./undo_setup.ts";

/** Where `-p` reports the task: the answer as text, or the JSON front end. */
export interface PrintReport {
  /** The task is about to start. */
  start?(): void;
  /** The task ended with `result`; human lines were already shown. */
  finish(result: TaskResult): void;
}

/**
 * The report of `--output-format text`: the final answer, when there is one.
 * Contract: the answer is printed sanitized (escape sequences, CR and other controls shown
 * visibly, as everywhere on the terminal); the session keeps it as the model sent it.
 */
export function answerReport(printAnswer: (answer: string) => void): PrintReport {
  return {
    finish: (result) => {
      if (result.status === "done") printAnswer(sanitize(result.answer));
    },
  };
}

/**
 * Runs a single task for `-p`.
 * Contract: returns the exit code of {@linkcode exitCode}: 0 done, 1 failed, 3 step limit,
 * 4 budget, 130 interrupted (SIGINT).
 */
export async function runPrint(
  agent: Agent,
  task: string,
  options: { renderer: Renderer; report: PrintReport; undo?: TaskUndo | undefined },
): Promise<number> {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  Deno.addSignalListener("SIGINT", onSignal);
  let result: TaskResult;
  try {
    options.report.start?.();
    result = await runBetweenSnapshots(agent, task, controller.signal, { undo: options.undo });
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
  }
  if (result.status === "interrupted") options.renderer.line("⏹ Interrupted");
  else options.renderer.finish(result);
  options.report.finish(result);
  return exitCode(result);
}
