/**
 * The notes powercode adds to history when a task ends without an answer, so the next
 * request tells the model what happened before the new task, and the notes that go with a
 * task: plan mode turned on or off, unfinished work in TODO.md.
 *
 * @module
 */
import { checklistLines, isNote, NOTE_PREFIX, TODO_FILE, type TodoItem } from "../core/mod.ts";
import { PLAN_FILE } from "../tools/mod.ts";

export { isNote, NOTE_PREFIX };

/** Stands in for a reply that never came, so a note never follows the task it closes directly. */
export const NO_REPLY = "(no reply)";

/** The note after a task the user interrupted with Ctrl+C. */
export function interruptedNote(): string {
  return `${NOTE_PREFIX}The user interrupted the previous task on purpose (Ctrl+C) before it ` +
    "finished; any reply above was cut off there. Do not continue or redo it unless the next " +
    "message asks for it.";
}

/**
 * The note after a task whose process ended before its reply came (killed, or the machine
 * stopped), recorded when the session is resumed.
 */
export function stoppedNote(): string {
  return `${NOTE_PREFIX}The previous task was interrupted before it finished: powercode was ` +
    "stopped before the reply came. Do not continue or redo it unless the next message asks " +
    "for it.";
}

/** The note after a task that failed with `error` (one line). */
export function failedNote(error: string): string {
  // An error that ends a sentence itself (`… provider.json right?`) gets no second stop.
  const stop = /[.?!]$/.test(error) ? "" : ".";
  return `${NOTE_PREFIX}The previous task stopped on an error before it finished: ${error}${stop} ` +
    "Do not continue or redo it unless the next message asks for it.";
}

/** The note when plan mode is on and the model was not told yet. */
export function planOnNote(): string {
  return `${NOTE_PREFIX}Plan mode is on: the user wants a plan before any change. ` +
    `write_file and edit_file are refused for every path except ${PLAN_FILE} at the ` +
    "workspace root, bash runs with the workspace read-only, and the todo tool works. " +
    `Investigate, write the plan to ${PLAN_FILE} (and its steps with the todo tool), then ` +
    "ask the user to leave plan mode (/plan off) to carry it out.";
}

/** The note when plan mode went off since the model was told it is on. */
export function planOffNote(): string {
  return `${NOTE_PREFIX}Plan mode is off: the user left it, so files can be changed and bash ` +
    `can write the workspace again. ${PLAN_FILE} holds the agreed plan.`;
}

/** The note with a new session's first task when TODO.md holds steps not done. */
export function unfinishedTodoNote(items: readonly TodoItem[]): string {
  return `${NOTE_PREFIX}${TODO_FILE} at the workspace root holds unfinished work from an ` +
    `earlier session:\n${checklistLines(items).join("\n")}\nTake it up if the user asks ` +
    "for it, and keep the list current with the todo tool.";
}

/** What a note records, as the terminal shows it. */
export interface NoteSummary {
  text: string;
  /** The note closes a task that stopped (interrupted or failed). */
  stopped: boolean;
}

/** A short line for the terminal saying what a note records. */
export function noteSummary(content: string): NoteSummary {
  if (content === planOnNote()) return { text: "plan mode on", stopped: false };
  if (content === planOffNote()) return { text: "plan mode off", stopped: false };
  if (content.startsWith(`${NOTE_PREFIX}${TODO_FILE} at the workspace root holds unfinished`)) {
    return { text: `${TODO_FILE} holds unfinished work`, stopped: false };
  }
  const failure =
    /^\[powercode\] The previous task stopped on an error before it finished: (.*?)\.? Do not continue or redo it/s
      .exec(content);
  const text = failure ? `task stopped on an error: ${failure[1]}` : "task interrupted";
  return { text, stopped: true };
}

/** The note carrying what the user's `event` hook said, for the model. */
export function hookNote(event: string, text: string): string {
  return `${NOTE_PREFIX}The user's ${event} hook says:\n${text}`;
}
