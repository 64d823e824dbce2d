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
import { sanitize, sanitizeLine, writeTo } from "../terminal/mod.ts";
import { createFrontEnd, loadScriptOutput, type Renderer } from "../ui/mod.ts";
import { describeImage, type MessageImage } from "../core/mod.ts";
import { attachedLine, attachFiles } from "./attachments.ts";
import { countProblem, type ImageTarget, readImageFile, visionProblem } from "./image_input.ts";
import { withPipedInput } from "./piped_input.ts";

/** `-p TASK`: one task, its answer on stdout (or JSON), the exit code saying how it ended. */
export async function printMode(start: RunStart): Promise<number> {
  await using app = await openApp(start);
  const { agent, profiles, redactor, unfinishedTodo } = app;
  const target = { profile: agent.slot.name, vision: agent.slot.vision === true };
  const named = await imagesOf(start.cli.images, target);
  const renderer = await createFrontEnd(agent, {
    screen: false,
    color: app.color,
    interactive: false,
    redactor,
    fullReasoning: start.cli.showReasoning,
    model: () => profiles.label(agent.slot.name),
  });
  const task = await printTask(app, renderer, target);
  const images = [...named, ...task.images];
  const tooMany = countProblem(images.length);
  if (tooMany !== undefined) throw new ConfigError(tooMany);
  if (unfinishedTodo.length > 0) renderer.unfinishedTodo(unfinishedTodo);
  const shown = task.shown !== undefined ? { shown: task.shown } : {};
  const report = await printReport(app);
  return await runPrint(agent, task.text, { renderer, report, ...shown, images });
}

/**
 * The task of `-p`: the argument with the files it mentions as `@path` attached as at the
 * prompt (the same limits; `@shot.png` an image), then the piped text as its context, as it is.
 * Contract: throws a ConfigError, before anything is sent, for a refused file (ignored,
 * outside the workspace, binary, too large for the window) or piped text too large.
 */
async function printTask(
  app: App,
  renderer: Renderer,
  target: ImageTarget,
): Promise<Submitted & { images: MessageImage[] }> {
  const { agent } = app;
  const typed = app.start.cli.print ?? "";
  const settings = agent.slot.compactor.settings;
  const maxTokens = messageRoom(settings, agent.requestOverhead);
  const attached = await attachFiles(typed, app.workspace, { maxTokens, target });
  if (!attached.ok) throw new ConfigError(attached.error);
  for (const file of attached.files) renderer.line(renderer.dim(attachedLine(file)));
  for (const { path, image } of attached.images) {
    renderer.line(renderer.dim(`  attached ${sanitizeLine(path)} (${describeImage(image)})`));
  }
  const images = attached.images.map(({ image }) => image);
  const text = withPipedInput(attached.text, app.piped, settings);
  return attached.files.length === 0 ? { text, images } : { text, shown: typed, images };
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
async function printReport(app: App): Promise<PrintReport> {
  const { cli } = app.start;
  const stdout = writeTo(Deno.stdout);
  if (cli.outputFormat === "text") {
    return answerReport((answer) => app.redactor.wrap(stdout)(`${answer}\n`));
  }
  const ScriptOutput = await loadScriptOutput();
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
    /** The images `-i` named, sent after the task's text. */
    images?: MessageImage[];
  },
): Promise<number> {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  Deno.addSignalListener("SIGINT", onSignal);
  let result: TaskResult;
  try {
    options.report.start?.();
    const shown = options.shown !== undefined ? { shown: options.shown } : {};
    const images = options.images?.length ? { images: options.images } : {};
    result = await agent.run(task, controller.signal, { ...shown, ...images });
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
  }
  if (result.status === "interrupted") options.renderer.line("⏹ Interrupted");
  else options.renderer.finish(result);
  options.report.finish(result);
  return exitCode(result);
}
