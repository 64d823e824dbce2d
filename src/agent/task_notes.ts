/**
 * The notes powercode adds to history when a task ends without an answer, so the next
 * request tells the model what happened before the new task.
 *
 * @module
 */

/** Every note starts with this; the transcript shows notes apart from the user's tasks. */
export const NOTE_PREFIX = "[powercode] ";

/** Stands in for a reply that never came, so a note never follows the task it closes directly. */
export const NO_REPLY = "(no reply)";

/** The note after a task the user interrupted with Ctrl+C. */
export function interruptedNote(): string {
  return `${NOTE_PREFIX}The user interrupted the previous task on purpose (Ctrl+C) before it ` +
    "finished; any reply above was cut off there. Do not continue or redo it unless the next " +
    "message asks for it.";
}

/** The note after a task that failed with `error` (one line). */
export function failedNote(error: string): string {
  // An error that ends a sentence itself (`… provider.json right?`) gets no second stop.
  const stop = /[.?!]$/.test(error) ? "" : ".";
  return `${NOTE_PREFIX}The previous task stopped on an error before it finished: ${error}${stop} ` +
    "Do not continue or redo it unless the next message asks for it.";
}

/** Whether a user message is one of these notes. */
export function isNote(content: string): boolean {
  return content.startsWith(NOTE_PREFIX);
}

/** A short line for the terminal saying what a note records. */
export function noteSummary(content: string): string {
  const failure =
    /^\[powercode\] The previous task stopped on an error before it finished: (.*?)\.? Do not continue or redo it/s
      .exec(content);
  return failure ? `task stopped on an error: ${failure[1]}` : "task interrupted";
}
