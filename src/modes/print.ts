/**
 * The one-shot mode (`-p`): one task, reported as the final answer on stdout or as JSON,
 * SIGINT stops it; the exit code says how it ended.
 *
 * @module
 */
import type { Agent, TaskResult } from "../agent/mod.ts";
import { type App, exitCode, openApp, type RunStart } from "../app/mod.ts";
import { ConfigError } from "../config/mod.ts";
import { messageRoom } from "../context/mod.ts";
import type { Submitted } from "../editor/mod.ts";
import { sanitize, writeTo } from "../terminal/mod.ts";
import { createFrontEnd, type Renderer, ScriptOutput } from "../ui/mod.ts";
import { attachedLine, attachFiles } from "./attachments.ts";
import { withPipedInput } from "./piped_input.ts";

/** `-p TASK`: one task, its answer on stdout (or JSON), the exit code saying how it ended. */
export async function printMode(start: RunStart): Promise<number> {
  await using app = await openApp(start);
  const { agent, profiles, redactor, unfinishedTodo } = app;
  const renderer = await createFrontEnd(agent, {
    screen: false,
    color: app.color,
    interactive: false,
    redactor,
    fullReasoning: start.cli.showReasoning,
    model: () => profiles.label(agent.slot.name),
  });
  const task = await printTask(app, renderer);
  if (unfinishedTodo.length > 0) renderer.unfinishedTodo(unfinishedTodo);
  const shown = task.shown !== undefined ? { shown: task.shown } : {};
  return await runPrint(agent, task.text, { renderer, report: printReport(app), ...shown });
}

/**
 * The task of `-p`: the argument with the files it mentions as `@path` attached as at the
 * prompt (the same limits), then the piped text as its context, taken as it is.
 * Contract: throws a ConfigError, before anything is sent, for a refused file (ignored,
 * outside the workspace, binary, too large for the window) or piped text too large.
 */
async function printTask(app: App, renderer: Renderer): Promise<Submitted> {
  const { agent } = app;
  const typed = app.start.cli.print ?? "";
  const settings = agent.slot.compactor.settings;
  const maxTokens = messageRoom(settings, agent.requestOverhead);
  const attached = await attachFiles(typed, app.workspace, { maxTokens });
  if (!attached.ok) throw new ConfigError(attached.error);
  for (const file of attached.files) renderer.line(renderer.dim(attachedLine(file)));
  const text = withPipedInput(attached.text, app.piped, settings);
  return attached.files.length === 0 ? { text } : { text, shown: typed };
}

/**
 * How -p reports on stdout: the final answer as text, or JSON (`--output-format`), which then
 * is all that stdout gets.
 */
function printReport(app: App): PrintReport {
  const { cli } = app.start;
  const stdout = writeTo(Deno.stdout);
  if (cli.outputFormat === "text") {
    return answerReport((answer) => app.redactor.wrap(stdout)(`${answer}\n`));
  }
  return new ScriptOutput(app.agent, {
    redactor: app.redactor,
    model: app.profiles.config(app.agent.slot.name).model,
    roots: app.workspace.roots.map((root) => root.real),
    format: cli.outputFormat,
    write: stdout,
  });
}

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
  options: {
    renderer: Renderer;
    report: PrintReport;
    /** How the task reads in the session when that differs from `task` (files attached). */
    shown?: string;
  },
): Promise<number> {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  Deno.addSignalListener("SIGINT", onSignal);
  let result: TaskResult;
  try {
    options.report.start?.();
    const shown = options.shown !== undefined ? { shown: options.shown } : {};
    result = await agent.run(task, controller.signal, shown);
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
  }
  if (result.status === "interrupted") options.renderer.line("⏹ Interrupted");
  else options.renderer.finish(result);
  options.report.finish(result);
  return exitCode(result);
}
