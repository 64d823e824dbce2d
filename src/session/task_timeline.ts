/**
 * The session's tasks and its undo/redo stack. An undo takes a tail of the conversation out
 * of the session's history (kept here for a redo) and puts back the state the session had
 * before that tail's first message: compaction, usage, file lists. The session file stays
 * append-only: the undo is a record, and replaying the records rebuilds the same view.
 *
 * @module
 */
import type { Message } from "../core/mod.ts";
import type {
  Redoable,
  RedoRecord,
  TaskEndRecord,
  TaskMark,
  TaskStartRecord,
  TreeMove,
  UndoRecord,
} from "./task_records.ts";

/** A tail of the conversation taken out by an undo. */
interface UndoneChat<M, S> {
  messages: Message[];
  marks: M[];
  tasks: TaskMark[];
  /** The session's state when the undo happened, put back by the redo. */
  state: S;
}

/** One undo on the stack: what a redo brings back. */
interface Undone<M, S> {
  chat?: UndoneChat<M, S>;
  files?: TreeMove;
  /** The end of the branch the undo left, when it went back in the tree. */
  branch?: number;
}

/**
 * Tasks, marks and undos of one session, kept in step with its history: `M` is the
 * session's state before a message (its mark), `S` its whole state when an undo happens.
 * Contract: a message appended or a task started empties the redo stack.
 */
export class TaskTimeline<M, S> {
  #marks: M[] = [];
  #tasks: TaskMark[] = [];
  #undone: Undone<M, S>[] = [];
  #tree: string | undefined;
  /** The entry of each task's `task_start` record in the session's tree. */
  #entries = new WeakMap<TaskMark, number>();

  /** The entry of `task`'s `task_start` record; undefined when not known. */
  entryOf(task: TaskMark): number | undefined {
    return this.#entries.get(task);
  }

  /** The tasks of the conversation as it stands, oldest first. */
  get tasks(): readonly TaskMark[] {
    return this.#tasks;
  }

  /**
   * The workspace snapshot powercode last left the files in (after the last task, undo or
   * redo); undefined while a task runs, after one that never ended, or when none was taken.
   */
  get tree(): string | undefined {
    return this.#tree;
  }

  /** What `/redo` would bring back; undefined when there is nothing to redo. */
  get redoable(): Redoable | undefined {
    const top = this.#undone.at(-1);
    if (!top) return undefined;
    return { messages: top.chat?.messages.length ?? 0, ...(top.files ? { files: top.files } : {}) };
  }

  /** The end of the branch the undo a redo would take back left; undefined when none. */
  get redoBranch(): number | undefined {
    return this.#undone.at(-1)?.branch;
  }

  /** Message number `this.marks.length` is about to join history; `mark` is the state before it. */
  message(mark: M): void {
    this.#marks.push(mark);
    this.#undone = [];
  }

  /** A task starts at history index `at`, with entry `entry` of the session's tree. */
  startTask(record: TaskStartRecord, at: number, entry?: number): void {
    this.#undone = [];
    const task: TaskMark = { at, before: record.tree };
    this.#tasks.push(task);
    if (entry !== undefined) this.#entries.set(task, entry);
    this.#tree = undefined;
  }

  /** The last task ends. */
  endTask(record: TaskEndRecord): void {
    const last = this.#tasks.at(-1);
    if (last) last.after = record.tree;
    this.#tree = record.tree ?? undefined;
  }

  /**
   * Applies an undo to `history` (cut to `record.keep` messages); returns the mark to put
   * back, or undefined when the conversation stays (a files-only undo). `now`: the
   * session's mark and state as they are.
   * Contract: `record.keep` ≤ `history.length` (the record checks guarantee it on load).
   */
  undo(record: UndoRecord, history: Message[], now: { mark: M; state: S }): M | undefined {
    const undone: Undone<M, S> = {
      ...(record.files ? { files: record.files } : {}),
      ...(record.from !== undefined ? { branch: record.from } : {}),
    };
    if (record.files) this.#tree = record.files.to;
    let mark: M | undefined;
    if (record.keep !== undefined) {
      const keep = record.keep;
      mark = this.#marks[keep] ?? now.mark;
      const first = this.#tasks.findIndex((task) => task.at >= keep);
      undone.chat = {
        messages: history.splice(keep),
        marks: this.#marks.splice(keep),
        tasks: first === -1 ? [] : this.#tasks.splice(first),
        state: now.state,
      };
    }
    this.#undone.push(undone);
    return mark;
  }

  /**
   * Takes the last undo back: its messages return to `history`; returns the state to put
   * back when the conversation changes. Contract: there is an undo to take back.
   */
  redo(record: RedoRecord, history: Message[]): S | undefined {
    // Back on the branch: the conversation is its path already, the undos on it stay.
    if (record.branch) {
      if (record.tree !== undefined) this.#tree = record.tree;
      return undefined;
    }
    const undone = this.#undone.pop();
    if (!undone) throw new RangeError("Cannot redo: nothing was undone");
    if (undone.files) this.#tree = record.tree;
    const { chat } = undone;
    if (!chat) return undefined;
    history.push(...chat.messages);
    this.#marks.push(...chat.marks);
    this.#tasks.push(...chat.tasks);
    return chat.state;
  }
}
