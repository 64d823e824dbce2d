/**
 * The compact redraw of a resumed conversation, as the live session showed it: tasks (a
 * paste as its label), answers (cut, never inside a code fence), one line per tool call with
 * its outcome, commands run with `!`, and a marker where a summary replaced older turns.
 *
 * @module
 */
import type { CallDescription, Message, ToolCall } from "../core/mod.ts";
import { INTERRUPTED_RESULT, isNote, NO_REPLY, noteSummary, parseShellNote } from "../agent/mod.ts";

/** How a tool call ended: its result succeeded, failed, or never came (interrupted, a crash). */
export type ToolOutcome = "ok" | "failed" | "interrupted";

/** One entry of the redraw. */
export type TranscriptEntry =
  | { kind: "summary"; messages: number }
  | { kind: "omitted"; tasks: number }
  | { kind: "task"; text: string }
  | { kind: "answer"; text: string; moreLines: number }
  | {
    kind: "tool";
    call: ToolCall;
    description: CallDescription;
    outcome: ToolOutcome;
    /** The session file of the subagent that ran the call (the `task` tool). */
    session?: string;
  }
  | { kind: "shell"; command: string; ok: boolean }
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
  const outcomes = toolOutcomes(history);
  const sessions = childSessions(history);
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
        entries.push(userEntry(message.content, message.shown));
        break;
      case "assistant": {
        const text = message.content.trim();
        if (text !== "" && text !== NO_REPLY) entries.push(answer(text, maxAnswerLines));
        for (const call of message.toolCalls) {
          const description = options.describe(call);
          const outcome = outcomes.get(call.id) ?? "interrupted";
          const session = sessions.get(call.id);
          entries.push({
            kind: "tool",
            call,
            description,
            outcome,
            ...(session !== undefined ? { session } : {}),
          });
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

/** A user message: a task (as it was shown), a command run with `!`, or a note. */
function userEntry(content: string, shown: string | undefined): TranscriptEntry {
  if (!isNote(content)) return { kind: "task", text: shown ?? content };
  const shell = parseShellNote(content);
  return shell ? { kind: "shell", ...shell } : { kind: "note", ...noteSummary(content) };
}

/** Each answered call's outcome, by call id; a call without a result has none. */
function toolOutcomes(history: readonly Message[]): Map<string, ToolOutcome> {
  const outcomes = new Map<string, ToolOutcome>();
  for (const message of history) {
    if (message.role !== "tool") continue;
    const interrupted = message.content.endsWith(INTERRUPTED_RESULT);
    outcomes.set(
      message.toolCallId,
      interrupted ? "interrupted" : message.isError ? "failed" : "ok",
    );
  }
  return outcomes;
}

/** The session file of each call a subagent ran, by call id. */
function childSessions(history: readonly Message[]): Map<string, string> {
  return new Map(
    history.flatMap((message) =>
      message.role === "tool" && message.session !== undefined
        ? [[message.toolCallId, message.session] as const]
        : []
    ),
  );
}

/** Fences open with three or more backticks or tildes, indented at most three spaces. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The first `maxLines` lines of an answer; when the cut falls inside a code fence, the fence
 * is closed after them, so that the rest renders as the live session did. One line more is
 * shown rather than a `… 1 more line` row in its place.
 */
function answer(text: string, maxLines: number): TranscriptEntry {
  const lines = text.split("\n");
  if (lines.length <= maxLines + 1) return { kind: "answer", text, moreLines: 0 };
  const kept = lines.slice(0, maxLines);
  let open: string | undefined;
  for (const line of kept) {
    const fence = FENCE.exec(line)?.[1];
    if (fence === undefined) continue;
    if (open === undefined) open = fence;
    else if (fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) {
      open = undefined;
    }
  }
  if (open !== undefined) kept.push(open);
  return { kind: "answer", text: kept.join("\n"), moreLines: lines.length - maxLines };
}
