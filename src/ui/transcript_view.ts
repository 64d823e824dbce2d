/**
 * The lines of a resumed conversation's compact redraw, with every text from the
 * session file sanitized.
 *
 * @module
 */
import type { TranscriptEntry } from "./transcript.ts";
import { sanitize, sanitizeLine, type Theme } from "../terminal/mod.ts";
import { describeCall } from "./tool_view.ts";

/** One entry as terminal lines, in the colours of `theme`. */
export function transcriptLine(entry: TranscriptEntry, theme: Theme): string {
  const { bold, cyan, dim, green, red } = theme;
  switch (entry.kind) {
    case "summary":
      return dim(`── the ${entry.messages} messages above are summarized for the model ──`);
    case "omitted":
      return dim(`… ${entry.tasks} earlier ${entry.tasks === 1 ? "task" : "tasks"} not shown`);
    case "task":
      return bold(`› ${sanitize(entry.text).replaceAll("\n", "\n  ")}`);
    case "answer":
      return entry.moreLines === 0
        ? sanitize(entry.text)
        : `${sanitize(entry.text)}\n${dim(`  … ${entry.moreLines} more lines`)}`;
    case "tool":
      return `${cyan("●")} ${bold(sanitizeLine(entry.call.name))} ${
        describeCall(entry.description, dim)
      } ${entry.ok ? green("✓") : red("✗")}`;
    case "note":
      return dim(`${entry.stopped ? "⏹" : "·"} ${sanitize(entry.text)}`);
    default: {
      const never: never = entry;
      throw new TypeError(`Cannot show transcript entry: ${JSON.stringify(never)}`);
    }
  }
}
