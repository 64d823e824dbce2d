/**
 * One task at the prompt, with the input kept below it: lines typed meanwhile are queued
 * (shown as `queued: …`), steering messages reach the model after the current step with their
 * `@path` files, Alt+Up takes the queued lines back into the input, Esc does too and interrupts.
 *
 * @module
 */
import type { Agent, TaskResult } from "../agent/mod.ts";
import { messageRoom } from "../context/mod.ts";
import type { UserMessage } from "../core/mod.ts";
import type { LineInput, PaintedInput, Submitted } from "../editor/mod.ts";
import type { Workspace } from "../tools/mod.ts";
import type { Renderer } from "../ui/mod.ts";
import { type Attached, attachedLine, attachFiles } from "./attachments.ts";
import type { Boundary } from "./boundary.ts";
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
      const work = () => agent.run(message.text, signal, run);
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

/** The message with its attachments; undefined (the failure shown) when one was refused. */
async function attach(entry: Submitted, context: TaskContext): Promise<Submitted | undefined> {
  const attached = await withFiles(entry, context);
  if (!attached) {
    context.boundary.fail();
    return undefined;
  }
  showFiles(attached.files, context.renderer);
  return attached.entry;
}

/**
 * `entry` with its `@path` files attached, as a typed task has them (the same size limit);
 * undefined when one was refused: the failure is shown and the text goes back into the input.
 */
async function withFiles(
  entry: Submitted,
  context: TaskContext,
): Promise<{ entry: Submitted; files: Attached[] } | undefined> {
  const { agent } = context;
  const maxTokens = messageRoom(agent.slot.compactor.settings, agent.requestOverhead);
  const attached = await attachFiles(entry.text, context.workspace, { maxTokens });
  if (!attached.ok) {
    context.renderer.failure(attached.error);
    context.input.restore(entry.text);
    return undefined;
  }
  const { files } = attached;
  if (files.length === 0) return { entry, files };
  return { entry: { text: attached.text, shown: entry.shown ?? entry.text }, files };
}

function showFiles(files: readonly Attached[], renderer: Renderer): void {
  for (const file of files) renderer.line(renderer.dim(attachedLine(file)));
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
    showFiles(attached.files, context.renderer);
    messages.push({
      role: "user",
      content: entry.text,
      ...(entry.shown !== undefined ? { shown: entry.shown } : {}),
    });
  }
  return messages;
}
