/**
 * How tool work looks on a terminal: a running command's last output lines, its
 * result with line count and duration, and the change an edit made as a compact diff.
 *
 * @module
 */
import type { CallDescription, ToolDetails } from "../core/mod.ts";
import { fitWidth, sanitizeLine, textWidth, type Theme, truncateWidth } from "../terminal/mod.ts";

/** Output lines shown while a command runs and after it ends. */
const TAIL_LINES = 4;
/** Diff lines shown for an edit. */
const DIFF_LINES = 12;
const INDENT = "    ";
/** Columns of a tool's argument shown after its name. */
const ARGUMENT_WIDTH = 80;

/**
 * The last lines of a command's output as it streams, and how many lines there were.
 * A CR inside a line (progress bars) keeps only what follows it, as a terminal would show.
 */
export class OutputTail {
  #lines: string[] = [];
  #open = "";
  #count = 0;

  /** Adds output. */
  push(text: string): void {
    const parts = (this.#open + text).split("\n");
    this.#open = parts.pop() ?? "";
    for (const line of parts) {
      this.#count++;
      this.#lines.push(line);
    }
    if (this.#lines.length > TAIL_LINES) this.#lines = this.#lines.slice(-TAIL_LINES);
  }

  /** Lines of output so far, an unfinished last line included. */
  get count(): number {
    return this.#count + (this.#open === "" ? 0 : 1);
  }

  /** The last lines (at most four), as shown: after the last CR, sanitized. */
  last(): string[] {
    const lines = this.#open === "" ? this.#lines : [...this.#lines, this.#open];
    return lines.slice(-TAIL_LINES).map((line) =>
      sanitizeLine(line.slice(line.replace(/\r+$/, "").lastIndexOf("\r") + 1).replace(/\r+$/, ""))
    );
  }
}

/** Rows for the live region while a command runs: its last output lines, dim, cut to `width`. */
export function tailRows(tail: OutputTail, width: number, theme: Theme): string[] {
  return tail.last().map((line) => theme.dim(truncateWidth(`${INDENT}${line}`, width - 1)));
}

/**
 * The lines after a command ends: `✓ exit 0 · 312 lines · 1.4 s` (✗ for a failure or a
 * non-zero exit), then a note of earlier lines and the last lines of output.
 */
export function commandResult(
  result: { ok: boolean; summary: string; ms: number; tail: OutputTail },
  width: number,
  theme: Theme,
): string[] {
  const { tail } = result;
  const mark = result.ok ? theme.green("✓") : theme.red("✗");
  const count = tail.count === 1 ? "1 line" : `${tail.count} lines`;
  const head = `  ${mark} ${sanitizeLine(result.summary)}${
    theme.dim(` · ${count} · ${formatDuration(result.ms)}`)
  }`;
  const shown = tailRows(tail, width, theme);
  const hidden = tail.count - shown.length;
  const note = hidden > 0 ? [theme.dim(`${INDENT}… ${hidden} earlier lines`)] : [];
  return [head, ...note, ...shown];
}

/** The details of an edit: the lines it replaced and their replacement. */
export type EditDetails = Extract<ToolDetails, { kind: "edit" }>;

/**
 * The change an edit made as whole lines, like pi: numbered, `-` for the removed, `+` for the
 * added, and a few unchanged lines around them (dim); at most twelve changed lines, then a
 * note. With several replacements, the first is shown and a note says so.
 */
export function editDiff(diff: EditDetails, width: number, theme: Theme): string[] {
  const last = diff.firstLine + Math.max(diff.removedCount, diff.addedCount) + diff.after.length;
  const digits = String(last).length;
  // A line longer than this cannot fit the row: sanitizing all of it is wasted work.
  const cap = 4 * width + 8;
  const row = (sign: string, number: number, text: string, style: (text: string) => string) =>
    style(
      truncateWidth(
        `${INDENT}${sign}${String(number).padStart(digits)} ${sanitizeLine(text.slice(0, cap))}`,
        width - 1,
      ),
    );
  const numbered = (lines: string[], sign: string, first: number, style: (t: string) => string) =>
    lines.map((text, index) => row(sign, first + index, text, style));
  const before = numbered(diff.before, " ", diff.firstLine - diff.before.length, theme.dim);
  const changed = [
    ...numbered(diff.removed, "-", diff.firstLine, theme.red),
    ...numbered(diff.added, "+", diff.firstLine, theme.green),
  ];
  const total = diff.removedCount + diff.addedCount;
  const note = diff.occurrences > 1
    ? [theme.dim(`${INDENT}(the first of ${diff.occurrences} replacements)`)]
    : [];
  if (total > DIFF_LINES) {
    const more = total - DIFF_LINES + 1;
    return [
      ...before,
      ...changed.slice(0, DIFF_LINES - 1),
      theme.dim(`${INDENT}… ${more} more lines`),
      ...note,
    ];
  }
  const after = numbered(diff.after, " ", diff.firstLine + diff.addedCount, theme.dim);
  return [...before, ...changed, ...after, ...note];
}

/** A duration: `0.4 s`, `12.5 s`, `2m 05s`. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, "0")}s`;
}

/**
 * The short text shown after a tool's name: the first line of the tool's description of the
 * call (a path, a command), sanitized and cut to 80 columns; `dim` styles the note for
 * malformed arguments.
 */
export function describeCall(
  description: CallDescription,
  dim: (text: string) => string = (t) => t,
): string {
  if (description.kind === "malformed") return dim("(malformed arguments)");
  const value = description.text;
  const first = value.split("\n")[0] ?? "";
  const shown = sanitizeLine(first);
  const cut = value.includes("\n") || textWidth(shown) > ARGUMENT_WIDTH;
  return cut ? `${fitWidth(shown, ARGUMENT_WIDTH).head}…` : shown;
}
