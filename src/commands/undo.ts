/**
 * `/undo`, `/redo` and `/rewind`: files and conversation taken back to before a task (or
 * brought forth again), with what changed since named instead of overwritten.
 *
 * @module
 */
import { sanitizeLine } from "../terminal/mod.ts";
import type { TaskSummary, UndoOutcome } from "../undo/mod.ts";
import type { Command, CommandContext } from "./command.ts";

/** `/undo [--force]`. */
export const undoCommand: Command = {
  name: "/undo",
  usage: "/undo [--force]",
  help: "take back the last task: its file changes (bash too) and its messages",
  run: undoLast,
};

/** `/redo [--force]`. */
export const redoCommand: Command = {
  name: "/redo",
  usage: "/redo [--force]",
  help: "bring back what /undo or /rewind took, until a new task starts",
  run: redoLast,
};

/** `/rewind [N]`. */
export const rewindCommand: Command = {
  name: "/rewind",
  usage: "/rewind [N]",
  help: "list the tasks; with N, go back to before task N (--files or --chat: only those)",
  run: rewind,
};

/** The flags the three commands take. */
interface UndoArgs {
  force: boolean;
  files: boolean;
  chat: boolean;
  number: number | undefined;
}

/** `/undo [--force]`: the last task's files and conversation. */
async function undoLast(context: CommandContext, args: string): Promise<void> {
  const { agent } = context.app;
  const { force } = parseArgs(args, "/undo", { number: false, only: false });
  const outcome = await agent.undoTasks(agent.view.tasks.length, {
    files: true,
    chat: true,
    force,
  });
  report(outcome, context, { verb: "Undone", retry: "/undo --force", since: "the task ended" });
}

/** `/redo [--force]`: what the last undo took, until a new task starts. */
async function redoLast(context: CommandContext, args: string): Promise<void> {
  const { force } = parseArgs(args, "/redo", { number: false, only: false });
  const outcome = await context.app.agent.redo({ force });
  report(outcome, context, { verb: "Redone", retry: "/redo --force", since: "the undo" });
}

/** `/rewind`: the tasks; `/rewind N [--files|--chat] [--force]`: back to before task N. */
async function rewind(context: CommandContext, args: string): Promise<void> {
  const { agent } = context.app;
  const parsed = parseArgs(args, "/rewind", { number: true, only: true });
  if (parsed.number === undefined) return context.screen.line(formatTasks(agent.tasks()));
  const outcome = await agent.undoTasks(parsed.number, parsed);
  report(outcome, context, {
    verb: `${parsed.chat ? "Rewound" : "Files rewound"} to before task ${parsed.number}`,
    retry: `/rewind ${args.trim()} --force`,
    since: "powercode last changed them",
    chat: parsed.chat,
  });
}

/** The `/rewind` table: number, first line, files changed. */
export function formatTasks(tasks: readonly TaskSummary[]): string {
  if (tasks.length === 0) return "No tasks to rewind in this session";
  const rows = tasks.map((task) => {
    const files = task.files === undefined ? "?" : plural(task.files, "file");
    const text = sanitizeLine(task.text.split("\n")[0] ?? "");
    const cut = [...text].length > 50 ? `${[...text].slice(0, 49).join("")}…` : text;
    return `  ${String(task.number).padStart(3)}  ${cut.padEnd(50)}  ${files}`;
  });
  return [
    ...rows,
    "/rewind N goes back to before task N (files and conversation; --files or --chat for one)",
  ].join("\n");
}

function parseArgs(
  text: string,
  command: string,
  allowed: { number: boolean; only: boolean },
): UndoArgs {
  const args: UndoArgs = { force: false, files: true, chat: true, number: undefined };
  for (const word of text.split(/\s+/).filter((word) => word !== "")) {
    if (word === "--force") args.force = true;
    else if (allowed.only && word === "--files") args.chat = false;
    else if (allowed.only && word === "--chat") args.files = false;
    else if (allowed.number && /^[1-9][0-9]*$/.test(word) && args.number === undefined) {
      args.number = Number(word);
    } else throw new TypeError(`Invalid ${command} argument "${sanitizeLine(word)}": see /help`);
  }
  if (!args.files && !args.chat) {
    throw new TypeError(
      `Invalid ${command}: --files and --chat exclude each other; give neither for both`,
    );
  }
  if (allowed.number && args.number === undefined && text.trim() !== "") {
    throw new TypeError(`Invalid ${command}: give the task's number, e.g. /rewind 2`);
  }
  return args;
}

/** Shows how the move ended; a conflict is an error naming the paths and the way on. */
function report(
  outcome: UndoOutcome,
  context: CommandContext,
  words: { verb: string; retry: string; since: string; chat?: boolean },
): void {
  if (outcome.type === "conflict") {
    throw new Error(
      `Cannot ${words.verb === "Redone" ? "redo" : "undo"}: changed since ${words.since}: ${
        outcome.paths.map(sanitizeLine).join(", ")
      }; ${words.retry} overwrites them (a /redo after it brings them back)`,
    );
  }
  const renderer = context.screen;
  const first = sanitizeLine(outcome.task.split("\n")[0] ?? "");
  renderer.line(first === "" ? words.verb : `${words.verb}: ${first}`);
  renderer.line(
    `restored ${plural(outcome.restored.length, "file")}, removed ${outcome.removed.length}`,
  );
  if (outcome.notRestorable.length > 0) {
    renderer.line(
      `⚠ not restored (no copy kept: over the size cap, unreadable, or a link): ${
        outcome.notRestorable.map(sanitizeLine).join(", ")
      }`,
    );
  }
  if (outcome.unchecked) {
    renderer.line("⚠ the task ended without a snapshot: changes made since it were undone too");
  }
  if (words.verb !== "Redone" && words.chat !== false && outcome.task !== "") {
    context.setInput?.(outcome.task);
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
