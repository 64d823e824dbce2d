/**
 * The lines an edit changed, found in one pass over each text: whole lines, numbered, with
 * a few unchanged lines around them.
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

/** A change in a file as whole lines: where it starts and the lines around it. */
export interface EditHunk extends ChangedLines {
  /** The 1-based line number of the first removed line (and of the first added one). */
  firstLine: number;
  /** Unchanged lines just before the change. */
  before: string[];
  /** Unchanged lines just after the change. */
  after: string[];
}

/** How much of a hunk to keep. */
export interface HunkLimits {
  /** Most removed and added lines kept each (the counts cover all). */
  lines: number;
  /** Unchanged lines kept on each side. */
  context: number;
  /** Characters kept of one line: more than any terminal row shows. */
  lineChars: number;
}

/**
 * Splits both texts at newlines and leaves out the lines they share at their start,
 * then those they share at their end, as long as a line stays on one side (an insertion
 * has no removed line, an edit within one line shows it removed and added).
 * Contract: time linear in the texts' length; at most `limit` lines of each side are
 * returned, the counts cover them all.
 */
export function changedLines(before: string, after: string, limit: number): ChangedLines {
  const { lines } = diffLines(before, after, limit);
  return lines;
}

/**
 * The change of replacing `from` at index `start` of `text` by `to`, as whole lines of the
 * file: the lines holding the replaced text before and after, less those both share, with
 * their line number and up to `limits.context` unchanged lines on each side.
 * Contract: time linear in the length of `text` and `to`; every returned line is cut to
 * `limits.lineChars` characters.
 */
export function editHunk(
  text: string,
  edit: { start: number; from: string; to: string },
  limits: HunkLimits,
): EditHunk {
  const { start, from, to } = edit;
  const end = start + from.length;
  const lineStart = lineStartAt(text, start);
  const newline = text.indexOf("\n", end);
  const lineEnd = newline < 0 ? text.length : newline;
  const oldBlock = text.slice(lineStart, lineEnd);
  const newBlock = text.slice(lineStart, start) + to + text.slice(end, lineEnd);
  const { lines, head, headChars, removedChars } = diffLines(oldBlock, newBlock, limits.lines);
  const changeStart = lineStart + headChars;
  const changeEnd = changeStart + removedChars;
  // A CRLF file's lines end with CR: the diff shows lines, not line ends.
  const cut = (line: string) => line.replace(/\r$/, "").slice(0, limits.lineChars);
  return {
    removed: lines.removed.map(cut),
    added: lines.added.map(cut),
    removedCount: lines.removedCount,
    addedCount: lines.addedCount,
    firstLine: 1 + countNewlines(text, 0, lineStart) + head,
    before: linesBefore(text, changeStart, limits.context).map(cut),
    after: linesAfter(text, changeEnd, limits.context).map(cut),
  };
}

/**
 * The changed lines, how many lines both texts share at their start, and the characters
 * those shared lines and the removed lines take in `before` (newlines included).
 */
function diffLines(before: string, after: string, limit: number) {
  const removed = before.split("\n");
  const added = after.split("\n");
  let start = 0;
  let headChars = 0;
  // Shared lines go while one side keeps a line: an insertion or deletion shows one side only.
  while (
    start < removed.length && start < added.length && removed[start] === added[start] &&
    (start + 1 < removed.length || start + 1 < added.length)
  ) {
    headChars += (removed[start]?.length ?? 0) + 1;
    start++;
  }
  let removedEnd = removed.length;
  let addedEnd = added.length;
  while (
    removedEnd > start && addedEnd > start && removed[removedEnd - 1] === added[addedEnd - 1] &&
    (removedEnd - start > 1 || addedEnd - start > 1)
  ) {
    removedEnd--;
    addedEnd--;
  }
  let removedChars = removedEnd - start - 1;
  for (let i = start; i < removedEnd; i++) removedChars += removed[i]?.length ?? 0;
  return {
    lines: {
      removed: removed.slice(start, Math.min(removedEnd, start + limit)),
      added: added.slice(start, Math.min(addedEnd, start + limit)),
      removedCount: removedEnd - start,
      addedCount: addedEnd - start,
    },
    head: start,
    headChars,
    removedChars,
  };
}

/** Where the line holding index `at` of `text` starts. */
function lineStartAt(text: string, at: number): number {
  // lastIndexOf reads a negative start as 0, which would find a newline at index 0.
  return at <= 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1;
}

/** Up to `count` whole lines of `text` ending just before the line starting at `at`. */
function linesBefore(text: string, at: number, count: number): string[] {
  const lines: string[] = [];
  let end = at - 1;
  while (lines.length < count && end >= 0) {
    const start = lineStartAt(text, end);
    lines.unshift(text.slice(start, end));
    end = start - 1;
  }
  return lines;
}

/** Up to `count` whole lines of `text` after the line ending at `at` (a newline or the end). */
function linesAfter(text: string, at: number, count: number): string[] {
  const lines: string[] = [];
  let start = at + 1;
  while (lines.length < count && start <= text.length) {
    const newline = text.indexOf("\n", start);
    if (newline < 0) {
      if (start < text.length) lines.push(text.slice(start));
      break;
    }
    lines.push(text.slice(start, newline));
    start = newline + 1;
  }
  return lines;
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf("\n", from); at !== -1 && at < to; at = text.indexOf("\n", at + 1)) {
    count++;
  }
  return count;
}
