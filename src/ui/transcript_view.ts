/**
 * The lines of a resumed conversation's compact redraw, with every text from the
 * session file sanitized.
 *
 * @module
 */
import type { TranscriptEntry } from "./transcript.ts";
import { sanitize, sanitizeLine, textWidth, type Theme, truncateWidth } from "../terminal/mod.ts";
import { describeCall } from "./tool_view.ts";

/**
 * One entry as terminal lines, in the colours of `theme`, a tool's line cut to `width`
 * columns as the live one is; tasks and answers are the renderer's, which draws them as it
 * drew them live.
 */
export function transcriptLine(
  entry: Exclude<TranscriptEntry, { kind: "answer" | "task" }>,
  theme: Theme,
  width = Infinity,
): string {
  const { bold, cyan, dim, green, red } = theme;
  switch (entry.kind) {
    case "summary":
      return dim(`── the ${entry.messages} messages above are summarized for the model ──`);
    case "omitted":
      return dim(`… ${entry.tasks} earlier ${entry.tasks === 1 ? "task" : "tasks"} not shown`);
    case "tool": {
      const [mark, more] = entry.outcome === "ok"
        ? [green("✓"), ""]
        : entry.outcome === "failed"
        ? [red("✗"), ""]
        : [red("✗"), " interrupted"];
      const child = entry.session === undefined ? "" : ` · session ${sanitizeLine(entry.session)}`;
      const name = sanitizeLine(entry.call.name);
      const room = width - textWidth(`● ${name}  ✓${more}${child}`);
      const argument = truncateWidth(describeCall(entry.description), Math.max(1, room));
      const malformed = entry.description.kind === "malformed";
      return `${cyan("●")} ${bold(name)} ${malformed ? dim(argument) : argument} ${mark}${
        dim(`${more}${child}`)
      }`;
    }
    case "shell":
      return `${bold(`$ ${sanitizeLine(entry.command)}`)} ${entry.ok ? green("✓") : red("✗")}`;
    case "note":
      return dim(`${entry.stopped ? "⏹" : "·"} ${sanitize(entry.text)}`);
    default: {
      const never: never = entry;
      throw new TypeError(`Cannot show transcript entry: ${JSON.stringify(never)}`);
    }
  }
}
