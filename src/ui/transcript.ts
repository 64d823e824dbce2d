/**
 * The compact redraw of a resumed conversation: tasks, answers, one line per tool call,
 * and a marker where a summary replaced older turns.
 *
 * @module
 */
import type { CallDescription, Message, ToolCall } from "../core/mod.ts";
import { isNote, NO_REPLY, noteSummary } from "../agent/mod.ts";

/** One entry of the redraw. */
export type TranscriptEntry =
  | { kind: "summary"; messages: number }
  | { kind: "omitted"; tasks: number }
  | { kind: "task"; text: string }
  | { kind: "answer"; text: string; moreLines: number }
  | { kind: "tool"; call: ToolCall; description: CallDescription; ok: boolean }
  /** `stopped`: the note closes a task that was interrupted or failed. */
  | { kind: "note"; text: string; stopped: boolean };

/** How to show tool calls, and how much to show. */
export interface TranscriptOptions {
  /** How a tool call is shown (`Agent.describeCall`). */
  describe: (call: ToolCall) => CallDescription;
  /** Only the newest tasks are shown (default 10). */
  maxTasks?: number;
  /** Answers longer than this many lines are cut (default 12). */
  maxAnswerLines?: number;
}

/**
 * Builds the redraw of `history`, of which the first `compactedUntil` messages were
 * summarized: the marker stands where the model's view of the conversation begins.
 * Contract: pure; notes powercode added after interruptions show as notes, not tasks.
 */
export function buildTranscript(
  history: readonly Message[],
  compactedUntil: number,
  options: TranscriptOptions,
): TranscriptEntry[] {
  const maxTasks = options.maxTasks ?? 10;
  const maxAnswerLines = options.maxAnswerLines ?? 12;
  const taskStarts = history.flatMap((message, index) =>
    message.role === "user" && !isNote(message.content) ? [index] : []
  );
  const first = taskStarts.length > maxTasks ? taskStarts[taskStarts.length - maxTasks] ?? 0 : 0;
  const entries: TranscriptEntry[] = [];
  const omitted = taskStarts.filter((index) => index < first).length;
  if (omitted > 0) entries.push({ kind: "omitted", tasks: omitted });
  const failed = new Set(
    history.flatMap((message) =>
      message.role === "tool" && message.isError ? [message.toolCallId] : []
    ),
  );
  if (compactedUntil > 0 && compactedUntil <= first) {
    entries.push({ kind: "summary", messages: compactedUntil });
  }
  for (let index = first; index < history.length; index++) {
    const message = history[index]!;
    if (index === compactedUntil && compactedUntil > first) {
      entries.push({ kind: "summary", messages: compactedUntil });
    }
    switch (message.role) {
      case "user":
        entries.push(
          isNote(message.content)
            ? { kind: "note", ...noteSummary(message.content) }
            : { kind: "task", text: message.content },
        );
        break;
      case "assistant": {
        const text = message.content.trim();
        if (text !== "" && text !== NO_REPLY) entries.push(answer(text, maxAnswerLines));
        for (const call of message.toolCalls) {
          const description = options.describe(call);
          entries.push({ kind: "tool", call, description, ok: !failed.has(call.id) });
        }
        break;
      }
      case "tool":
        break;
      default: {
        const never: never = message;
        throw new TypeError(`Cannot show message: ${JSON.stringify(never)}`);
      }
    }
  }
  return entries;
}

function answer(text: string, maxLines: number): TranscriptEntry {
  const lines = text.split("\n");
  if (lines.length <= maxLines) return { kind: "answer", text, moreLines: 0 };
  return {
    kind: "answer",
    text: lines.slice(0, maxLines).join("\n"),
    moreLines: lines.length - maxLines,
  };
}
