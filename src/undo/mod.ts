/**
 * Undo for whole tasks: snapshots of the workspace before and after each task, stored
 * content-addressed in powercode's state directory, and the undo, redo and rewind that
 * restore files and conversation together.
 *
 * @module
 */
export type { IsIgnored } from "./scanner.ts";
export type { Symlinker } from "./restore.ts";
export { type MoveOutcome, Snapshots } from "./snapshots.ts";
export type { Change } from "./tree_diff.ts";
export { TaskUndo } from "./task_undo.ts";
export {
  type BackOptions,
  type TaskSummary,
  type Undo,
  undoOff,
  type UndoOutcome,
} from "./undo.ts";
export type { SnapshotPath } from "./snapshot_files.ts";

/** The snapshot store read by path (`--bundle`), loaded when a bundle is written. */
export async function loadSnapshotFiles(): Promise<
  typeof import("./snapshot_files.ts").SnapshotFiles
> {
  return (await import("./snapshot_files.ts")).SnapshotFiles;
}
