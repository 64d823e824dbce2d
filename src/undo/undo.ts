/**
 * Undo as a run has it: snapshots around tasks and the moves back and forth, or a value that
 * says it is off in this run (every move refused with the reason, tasks run unrecorded).
 *
 * @module
 */
import type { ToolCall } from "../core/mod.ts";
import type { Session } from "../session/mod.ts";

/** A task as `/rewind` lists it. */
export interface TaskSummary {
  /** 1 for the session's first task still in the conversation. */
  number: number;
  /** The task's text. */
  text: string;
  /** How many files and links it changed; undefined when a snapshot is missing. */
  files: number | undefined;
}

/** What to take back: files, conversation, or both. */
export interface BackOptions {
  files: boolean;
  chat: boolean;
  /** Overwrite paths that changed since powercode last left them. */
  force: boolean;
}

/** How an undo, rewind or redo ended. */
export type UndoOutcome =
  | {
    type: "done";
    /** The text of the task taken back (undo) or brought back (redo). */
    task: string;
    /** Paths written, removed, and left as they were for want of content. */
    restored: string[];
    removed: string[];
    notRestorable: string[];
    /** The files were moved without a check: the last task ended without a snapshot. */
    unchecked: boolean;
  }
  /** Paths that changed since powercode last left them; nothing was done. */
  | { type: "conflict"; paths: string[] };

/** What the Agent calls around tasks, and what `/undo`, `/redo`, `/rewind` ask of it. */
export interface Undo {
  /** Whether tasks are snapshotted in this run. */
  readonly on: boolean;
  /** Records a task's start in `session`. Never throws. */
  beforeTask(session: Session): Promise<void>;
  /** Notes a tool call of the running task as it starts. */
  noteCall(call: ToolCall): void;
  /** Records the end of the task started last. Never throws. */
  afterTask(session: Session): Promise<void>;
  /** The session's tasks, oldest first. */
  list(session: Session): TaskSummary[];
  /** Takes back task `number` (1 = the first) and every task after it. */
  back(session: Session, number: number, options: BackOptions): Promise<UndoOutcome>;
  /** Brings back what the last undo took. */
  redo(session: Session, options: { force: boolean }): Promise<UndoOutcome>;
}

/** Undo that is off in this run: tasks run unrecorded, every move throws `reason`. */
export function undoOff(reason = "tasks are not snapshotted"): Undo {
  const refuse = (): never => {
    throw new Error(`Undo is off in this run: ${reason}`);
  };
  return {
    on: false,
    beforeTask: () => Promise.resolve(),
    noteCall: () => {},
    afterTask: () => Promise.resolve(),
    list: refuse,
    back: refuse,
    redo: refuse,
  };
}
