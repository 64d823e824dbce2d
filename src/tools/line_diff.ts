/**
 * The lines an edit changed, found in one pass over each text.
 *
 * @module
 */

/** The lines `before` loses and `after` gains, the first few of each and how many. */
export interface ChangedLines {
  /** The first removed lines, at most the limit asked for. */
  removed: string[];
  /** The first added lines, at most the limit asked for. */
  added: string[];
  removedCount: number;
  addedCount: number;
}

/**
 * Splits both texts at newlines and leaves out the lines they share at their start,
 * then those they share at their end; at least one line stays on each side (an edit
 * within one line shows it removed and added).
 * Contract: time linear in the texts' length; at most `limit` lines of each side are
 * returned, the counts cover them all.
 */
export function changedLines(before: string, after: string, limit: number): ChangedLines {
  const removed = before.split("\n");
  const added = after.split("\n");
  let start = 0;
  while (
    start < removed.length - 1 && start < added.length - 1 && removed[start] === added[start]
  ) start++;
  let removedEnd = removed.length;
  let addedEnd = added.length;
  while (
    removedEnd - start > 1 && addedEnd - start > 1 &&
    removed[removedEnd - 1] === added[addedEnd - 1]
  ) {
    removedEnd--;
    addedEnd--;
  }
  return {
    removed: removed.slice(start, Math.min(removedEnd, start + limit)),
    added: added.slice(start, Math.min(addedEnd, start + limit)),
    removedCount: removedEnd - start,
    addedCount: addedEnd - start,
  };
}
