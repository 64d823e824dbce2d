/**
 * One task at the prompt, with the input kept below it: lines typed meanwhile are queued
 * (shown as `queued: …`), steering messages reach the model after the current step with their
 * `@path` files, Alt+Up takes the queued lines back into the input, Esc does too and interrupts.
 *
 * @module
 */
import type { Agent, TaskResult } from "../agent/mod.ts";
import { messageRoom } from "../context/mod.ts";
import { describeImage, type MessageImage, type UserMessage } from "../core/mod.ts";
import type { LineInput, PaintedInput, Submitted } from "../editor/mod.ts";
import type { Workspace } from "../tools/mod.ts";
import { sanitizeLine } from "../terminal/mod.ts";
import type { Renderer } from "../ui/mod.ts";
import { type Attached, type AttachedImage, attachedLine, attachFiles } from "./attachments.ts";
import type { Boundary } from "./boundary.ts";
import { type ImageTarget, pastedImagePath, readImageFile, visionProblem } from "./image_input.ts";
import type { InputQueue } from "./input_queue.ts";

/** What a task runs with. */
export interface TaskContext {
  agent: Agent;
  renderer: Renderer;
  boundary: Boundary;
  /** The input shown below the task (on a terminal), the lines queued in it. */
  input: Pick<LineInput, "busy" | "restore">;
  queue: InputQueue;
  /** Where `@path` mentions are read. */
  workspace: Workspace;
  /** Takes a line typed while a question waits (the answer); false when none waits. */
  answer?: (line: string) => boolean;
  /** Runs the task's work within limits that hold for it only (a custom command's). */
  around?: (work: () => Promise<TaskResult>) => Promise<TaskResult>;
}

/**
 * Runs `entry` as a task behind the boundary, `@path` files attached.
 * Contract: never throws; a refused attachment runs nothing (the text goes back into the
 * input); after Esc the queued lines go back into the input; after Ctrl+C (the boundary's
 * interrupt) they are dropped; steering left when the task ended runs next, as follow-ups do.
 */
export async function runTask(entry: Submitted, context: TaskContext): Promise<void> {
  const { agent, renderer, boundary, queue } = context;
  let giveBack = false;
  await boundary.run(async (signal) => {
    const message = await attach(entry, context);
    if (!message) return;
    renderer.startTask();
    const shown = showInput(context, () => {
      giveBack = true;
      boundary.abort();
    });
    try {
      const run = {
        ...(message.shown !== undefined ? { shown: message.shown } : {}),
        steering: async () => {
          const steering = queue.takeSteering();
          if (steering.length === 0) return [];
          const messages = await deliver(steering, context);
          shown.redraw();
          return messages;
        },
      };
      const images = message.images ? { images: message.images } : {};
      const work = () => agent.run(message.text, signal, { ...run, ...images });
      const result = await (context.around ? context.around(work) : work());
      shown.stop();
      renderer.finish(result);
      if (result.status === "done") return;
      boundary.fail();
      // What was queued for a task that failed is not run: it goes back into the input.
      if (result.status !== "interrupted") giveBack = true;
    } finally {
      shown.stop();
    }
  });
  if (giveBack && !queue.empty) {
    context.input.restore(queue.takeAll().map((item) => item.text).join("\n"));
  }
}

/** A task's text, how it was shown, and the images that go with it. */
interface Message extends Submitted {
  images?: MessageImage[];
}

/** The message with its attachments; undefined (the failure shown) when one was refused. */
async function attach(entry: Submitted, context: TaskContext): Promise<Message | undefined> {
  const attached = await withFiles(entry, context);
  if (!attached) {
    context.boundary.fail();
    return undefined;
  }
  showAttached(attached, context.renderer);
  return attached.entry;
}

/** A message with what goes with it: files attached to its text, and images. */
interface WithFiles {
  entry: Message;
  files: Attached[];
  images: AttachedImage[];
}

/**
 * `entry` with its `@path` files and images attached, as a typed task has them (the same size
 * limit), or as the image whose path is the whole text; undefined when one was refused: the
 * failure is shown and the text goes back into the input.
 */
async function withFiles(entry: Submitted, context: TaskContext): Promise<WithFiles | undefined> {
  const { agent, renderer } = context;
  const target = { profile: agent.slot.name, vision: agent.slot.vision === true };
  const refuse = (error: string) => {
    renderer.failure(error);
    context.input.restore(entry.text);
    return undefined;
  };
  const pasted = await pastedImage(entry.text, target);
  if (pasted !== undefined) {
    if (!pasted.ok) return refuse(pasted.error);
    const { path, image } = pasted;
    return { entry: { ...entry, images: [image] }, files: [], images: [{ path, image }] };
  }
  const maxTokens = messageRoom(agent.slot.compactor.settings, agent.requestOverhead);
  const attached = await attachFiles(entry.text, context.workspace, { maxTokens, target });
  if (!attached.ok) return refuse(attached.error);
  const { files } = attached;
  const images = attached.images.length > 0
    ? { images: attached.images.map(({ image }) => image) }
    : {};
  const message = files.length === 0
    ? { ...entry, ...images }
    : { text: attached.text, shown: entry.shown ?? entry.text, ...images };
  return { entry: message, files, images: attached.images };
}

/** The `  attached …` lines of a message's files and images. */
function showAttached({ files, images }: WithFiles, renderer: Renderer): void {
  for (const file of files) renderer.line(renderer.dim(attachedLine(file)));
  for (const { path, image } of images) {
    renderer.line(renderer.dim(`  attached ${sanitizeLine(path)} (${describeImage(image)})`));
  }
}

/**
 * The image whose path is all of `text` (pasted on its own), or why it cannot go; undefined
 * when the text is no such path or names no file.
 */
async function pastedImage(
  text: string,
  target: ImageTarget,
): Promise<
  { ok: true; path: string; image: MessageImage } | { ok: false; error: string } | undefined
> {
  const path = pastedImagePath(text);
  if (path === undefined) return undefined;
  try {
    const image = await readImageFile(path);
    const refused = visionProblem(path, target);
    return refused === undefined ? { ok: true, path, image } : { ok: false, error: refused };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Shows the input and the queue below the task until `stop`; `redraw` after the queue changed. */
function showInput(
  context: TaskContext,
  escape: () => void,
): { stop: () => void; redraw: () => void } {
  const { renderer, queue } = context;
  let input: PaintedInput = { rows: [], cursor: { row: 0, col: 0 } };
  const draw = () => {
    const queued = queue.rows(renderer.width - 1, (text) => renderer.dim(text));
    const { row, col } = input.cursor;
    renderer.dock([...queued, ...input.rows], { row: queued.length + row, col });
  };
  const stop = context.input.busy({
    draw: (painted) => {
      input = painted;
      draw();
    },
    submit: (entry, kind) => {
      if (context.answer?.(entry.text)) return;
      queue.add(entry, kind);
      draw();
    },
    escape,
    recall: () => queue.takeAll(),
    clear: () => renderer.clearScreen(),
    pause: () => renderer.release(),
  });
  let stopped = false;
  return {
    redraw: draw,
    stop: () => {
      if (stopped) return;
      stopped = true;
      stop();
      renderer.dock([]);
    },
  };
}

/**
 * The steering messages as user messages, their `@path` files attached, each shown as the
 * user's line where it joins; one with a refused file is not sent (it goes back into the input).
 */
async function deliver(steering: Submitted[], context: TaskContext): Promise<UserMessage[]> {
  const messages: UserMessage[] = [];
  for (const typed of steering) {
    const attached = await withFiles(typed, context);
    if (!attached) continue;
    const { entry } = attached;
    context.renderer.userLine(entry.shown ?? entry.text);
    showAttached(attached, context.renderer);
    messages.push({
      role: "user",
      content: entry.text,
      ...(entry.shown !== undefined ? { shown: entry.shown } : {}),
      ...(entry.images ? { images: entry.images } : {}),
    });
  }
  return messages;
}
