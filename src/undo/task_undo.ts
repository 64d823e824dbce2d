/**
 * Undo by task: a snapshot before and after each task recorded in the session, and the
 * undo, rewind and redo that move files and conversation back (or forth) together.
 *
 * @module
 */
import { firstTyped, isNote, type ToolCall } from "../core/mod.ts";
import type { Session } from "../session/mod.ts";
import type { BackOptions, TaskSummary, Undo, UndoOutcome } from "./undo.ts";
import type { MoveOutcome, Snapshots } from "./snapshots.ts";

/** How a {@linkcode TaskUndo} works. */
export interface TaskUndoOptions {
  /** Receives one line when a snapshot cannot be taken. */
  warn?: (line: string) => void;
  /**
   * Whether a tool call may change files (default: every call may). A task whose calls
   * cannot is not scanned again at its end.
   */
  mayChange?: (call: ToolCall) => boolean;
}

/**
 * Snapshots around tasks and the moves back and forth.
 * Contract: the session file records every task's snapshots and every undo and redo, so a
 * resumed session (or `--undo` from the shell) continues where this one left off.
 */
export class TaskUndo implements Undo {
  /** Tasks are snapshotted. */
  readonly on = true;
  #snapshots: Snapshots;
  #options: TaskUndoOptions;
  /** The running task's snapshot before it, and whether a call of it may have changed files. */
  #running: { before: string | null; changing: boolean } | undefined;

  /** Undo over `snapshots`. */
  constructor(snapshots: Snapshots, options: TaskUndoOptions = {}) {
    this.#snapshots = snapshots;
    this.#options = options;
  }

  /** Records a task's start in `session` with a snapshot of the workspace. Never throws. */
  async beforeTask(session: Session): Promise<void> {
    const before = await this.#take("before this task");
    this.#running = { before, changing: false };
    session.startTask(before);
  }

  /** Notes a tool call of the running task as it starts. */
  noteCall(call: ToolCall): void {
    if (this.#running && (this.#options.mayChange?.(call) ?? true)) this.#running.changing = true;
  }

  /**
   * Records the end of the task started last, with a snapshot; when none of its calls could
   * change files, the snapshot before it stands for the one after. Never throws.
   */
  async afterTask(session: Session): Promise<void> {
    const running = this.#running;
    this.#running = undefined;
    const unchanged = running && !running.changing && running.before !== null;
    session.endTask(unchanged ? running.before : await this.#take("after this task"));
  }

  /** The session's tasks, oldest first, with how many files each changed. */
  list(session: Session): TaskSummary[] {
    return session.tasks.map((task, index) => {
      const { before, after } = task;
      const files = before && after
        ? this.#snapshots.changes(before, after).filter((change) =>
          (change.after ?? change.before)?.kind !== "dir"
        ).length
        : undefined;
      return { number: index + 1, text: taskText(session, index), files };
    });
  }

  /**
   * Takes back task `number` (1 = the first) and every task after it.
   * Contract: throws a RangeError when there is no such task, and an Error when its files
   * were asked for and no snapshot was taken before it.
   */
  async back(session: Session, number: number, options: BackOptions): Promise<UndoOutcome> {
    const task = session.tasks[number - 1];
    if (!task) {
      const count = session.tasks.length;
      throw new RangeError(
        count === 0
          ? "Nothing to undo: no task of this session is left to take back"
          : `No task ${number}: this session has ${count} (/rewind lists them)`,
      );
    }
    if (options.files && task.before === null) {
      throw new Error(
        `Cannot restore the files of task ${number}: no snapshot was taken before it; ` +
          `/rewind ${number} --chat takes back the conversation only`,
      );
    }
    const text = taskText(session, number - 1);
    const expected = session.tree;
    const move = options.files
      ? await this.#snapshots.move(expected, task.before!, { force: options.force })
      : undefined;
    if (move?.type === "conflict") return move;
    session.undo({
      ...(options.chat ? { keep: task.at } : {}),
      ...(move ? { files: { from: move.from, to: move.to } } : {}),
    });
    return done(text, move, move !== undefined && expected === undefined);
  }

  /**
   * Brings back what the last undo took; files that changed since the undo are a conflict
   * unless `force`. Contract: throws an Error when nothing was undone since the last task.
   */
  async redo(session: Session, options: { force: boolean }): Promise<UndoOutcome> {
    const redoable = session.redoable;
    if (!redoable) throw new Error("Nothing to redo: no undo since the last task");
    const move = redoable.files
      ? await this.#snapshots.move(session.tree, redoable.files.from, options)
      : undefined;
    if (move?.type === "conflict") return move;
    const first = session.history.length;
    session.redo(move?.to);
    const text = redoable.messages > 0 ? typedText(session.history, first) : "";
    return done(text, move, false);
  }

  async #take(when: string): Promise<string | null> {
    try {
      return await this.#snapshots.take();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.#options.warn?.(`⚠ No snapshot ${when} (${reason}): /undo cannot restore its files`);
      return null;
    }
  }
}

function done(task: string, move: MoveOutcome | undefined, unchecked: boolean): UndoOutcome {
  const moved = move?.type === "moved" ? move : undefined;
  return {
    type: "done",
    task,
    restored: moved?.restored ?? [],
    removed: moved?.removed ?? [],
    notRestorable: moved?.notRestorable ?? [],
    unchecked,
  };
}

/** What the person typed for task `index` (0 = the first), not the notes sent with it. */
function taskText(session: Session, index: number): string {
  const { tasks, history } = session;
  return typedText(history, tasks[index]?.at ?? history.length, tasks[index + 1]?.at);
}

function typedText(history: Session["history"], from: number, to?: number): string {
  const message = firstTyped(history, from, to);
  if (message === undefined) return "";
  return isNote(message.content) ? message.shown ?? "" : message.content;
}
