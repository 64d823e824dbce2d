/**
 * The one-shot mode (`-p`): one task, reported as the final answer on stdout or as JSON,
 * SIGINT stops it; the exit code says how it ended.
 *
 * @module
 */
import type { Agent, TaskResult } from "../agent/mod.ts";
import { type App, exitCode, openApp, type RunStart } from "../app/mod.ts";
import { sanitize, writeTo } from "../terminal/mod.ts";
import { createFrontEnd, type Renderer, ScriptOutput } from "../ui/mod.ts";
import { ConfigError } from "../config/mod.ts";
import type { MessageImage } from "../core/mod.ts";
import { countProblem, type ImageTarget, readImageFile, visionProblem } from "./image_input.ts";
import { withPipedInput } from "./piped_input.ts";

/** `-p TASK`: one task, its answer on stdout (or JSON), the exit code saying how it ended. */
export async function printMode(start: RunStart): Promise<number> {
  await using app = await openApp(start);
  const { agent, profiles, redactor, unfinishedTodo } = app;
  const task = withPipedInput(start.cli.print ?? "", app.piped, agent.slot.compactor.settings);
  const images = await imagesOf(start.cli.images, {
    profile: agent.slot.name,
    vision: agent.slot.vision === true,
  });
  const renderer = await createFrontEnd(agent, {
    screen: false,
    color: app.color,
    interactive: false,
    redactor,
    fullReasoning: start.cli.showReasoning,
    model: () => profiles.label(agent.slot.name),
  });
  if (unfinishedTodo.length > 0) renderer.unfinishedTodo(unfinishedTodo);
  return await runPrint(agent, task, { renderer, report: printReport(app), images });
}

/**
 * The images `-i` names, read before anything is sent.
 * Contract: throws a ConfigError (exit 2) with one line when the profile's model takes no
 * images, there are too many, or one cannot be read.
 */
async function imagesOf(paths: readonly string[], target: ImageTarget): Promise<MessageImage[]> {
  const problem = countProblem(paths.length) ??
    (paths[0] === undefined ? undefined : visionProblem(paths[0], target));
  if (problem !== undefined) throw new ConfigError(problem);
  const images: MessageImage[] = [];
  for (const path of paths) {
    try {
      images.push(await readImageFile(path));
    } catch (error) {
      throw new ConfigError(error instanceof Error ? error.message : String(error));
    }
  }
  return images;
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
  options: { renderer: Renderer; report: PrintReport; images?: MessageImage[] },
): Promise<number> {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  Deno.addSignalListener("SIGINT", onSignal);
  let result: TaskResult;
  try {
    options.report.start?.();
    const images = options.images?.length ? { images: options.images } : {};
    result = await agent.run(task, controller.signal, images);
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
  }
  if (result.status === "interrupted") options.renderer.line("⏹ Interrupted");
  else options.renderer.finish(result);
  options.report.finish(result);
  return exitCode(result);
}
