/**
 * The records that let a session be undone task by task: where each task starts and ends
 * (with the workspace snapshots then), and the undos and redos. The snapshots themselves
 * live elsewhere (the undo layer's store); a session names them only by id.
 *
 * @module
 */

/** A task begins; `tree`: the workspace snapshot before it (null: none could be taken). */
export interface TaskStartRecord {
  type: "task_start";
  tree: string | null;
}

/** The task begun last has ended; `tree`: the workspace snapshot after it (null: none). */
export interface TaskEndRecord {
  type: "task_end";
  tree: string | null;
}

/** Files put back: the workspace was snapshot `from`, and after the restore it is `to`. */
export interface TreeMove {
  from: string;
  to: string;
}

/**
 * An undo (or rewind): the conversation keeps its first `keep` messages, the rest waiting
 * for a redo; `files`, when the workspace was restored. Either may be missing, not both.
 */
export interface UndoRecord {
  type: "undo";
  keep?: number;
  files?: TreeMove;
  /**
   * The entry the conversation was at: the undo went back to before the tasks it took, and
   * they stay in the file as the branch ending there (absent in files written before).
   */
  from?: number;
}

/** The last undo taken back; `tree`: the workspace snapshot after its files were put back. */
export interface RedoRecord {
  type: "redo";
  tree?: string;
  /** The redo went back to the end of the branch an undo left (the entry it follows). */
  branch?: true;
}

/** A task of the conversation as it stands, and the workspace snapshots around it. */
export interface TaskMark {
  /** The index in history of the task's first message (its text). */
  at: number;
  /** The workspace before the task; null when no snapshot could be taken. */
  before: string | null;
  /** The workspace after it; undefined while it runs (or when it never ended: a crash). */
  after?: string | null;
}

/** What a redo would bring back. */
export interface Redoable {
  /** How many messages come back (0 for a files-only undo). */
  messages: number;
  /** The files to put back: from the workspace `to` the undo left, back to `from`. */
  files?: TreeMove;
}
