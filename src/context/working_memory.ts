/**
 * The working memory: what the model sees instead of the full history. A summary
 * message, then the recent messages with long tool outputs shortened and tool-call
 * pairing repaired.
 *
 * @module
 */
import {
  checklistLines,
  type Message,
  TODO_FILE,
  type TodoItem,
  type ToolResultMessage,
  type UserMessage,
} from "../core/mod.ts";
import type { CompactionState } from "../session/mod.ts";

/** Tool outputs longer than this many characters are shown as head + marker + tail. */
export const TOOL_OUTPUT_LIMIT = 8000;
/** The content of a tool result synthesized for a call that has none. */
export const MISSING_RESULT = "no result: interrupted";
/** Opens the message that carries the compaction summary. */
export const SUMMARY_PREFIX =
  "The conversation before this point was compacted into this summary:\n\n<summary>\n";
const SUMMARY_SUFFIX = "\n</summary>\n\n" +
  "Continue from here: carry on with the Next Steps above, if any, taking the messages " +
  "that follow into account.";

const FILES_MARKER = "\n\n---\nFiles read: ";
const TODO_HEADING = `Todo list (${TODO_FILE}, kept with the todo tool):`;
const PLAN_LINE = "Plan mode is on: only PLAN.md may be changed, and bash runs read-only.";

/** The part of a session the working memory is built from. */
export interface WorkingMemorySource {
  readonly history: readonly Message[];
  readonly compaction?: CompactionState | undefined;
}

/**
 * Shortens a text longer than `limit` characters to its first `floor(limit / 2)` and last
 * `limit - floor(limit / 2)` characters joined by a marker saying how much was left out.
 * Contract: pure; returns `text` itself when it fits; never splits a surrogate pair.
 */
export function truncateMiddle(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const head = pairSafe(text, Math.floor(limit / 2));
  const tail = pairSafe(text, text.length - (limit - Math.floor(limit / 2)));
  const omitted = tail - head;
  return `${text.slice(0, head)}\n\n[... ${omitted} characters omitted ...]\n\n${text.slice(tail)}`;
}

/**
 * The user message that stands for the compacted part of the conversation.
 * Contract: pure.
 */
export function summaryMessage(summary: string): UserMessage {
  return { role: "user", content: `${SUMMARY_PREFIX}${summary}${SUMMARY_SUFFIX}` };
}

/** What a summary carries verbatim besides the model's text (see {@linkcode withFileLists}). */
export interface PinnedState {
  filesRead: readonly string[];
  filesModified: readonly string[];
  /** The current todo list, when there is one. */
  todo?: readonly TodoItem[] | undefined;
  /** Whether plan mode is on. */
  planMode?: boolean;
}

/**
 * Appends the cumulative lists of files read and modified to a summary, then the todo list
 * as its checklist and a line when plan mode is on, replacing what was appended before.
 * Contract: pure; `withoutFileLists(withFileLists(s, files))` is `withoutFileLists(s)`.
 */
export function withFileLists(summary: string, files: PinnedState): string {
  const list = (paths: readonly string[]) => paths.length > 0 ? paths.join(", ") : "none";
  const todo = files.todo ? `\n${TODO_HEADING}\n${checklistLines(files.todo).join("\n")}` : "";
  const plan = files.planMode ? `\n${PLAN_LINE}` : "";
  return `${withoutFileLists(summary)}${FILES_MARKER}${list(files.filesRead)}\nFiles modified: ${
    list(files.filesModified)
  }${todo}${plan}`;
}

/**
 * A summary without the file lists `withFileLists` appended.
 * Contract: pure.
 */
export function withoutFileLists(summary: string): string {
  const at = summary.lastIndexOf(FILES_MARKER);
  return at === -1 ? summary : summary.slice(0, at);
}

/**
 * Builds the messages sent after the system prompt: the summary message when the session
 * was compacted, then the messages from `compactedUntil` on (up to `options.end`, default
 * the whole history), tool outputs over `toolOutputLimit` (default 8000) characters
 * shortened by `truncateMiddle`, pairing repaired.
 * Contract: never changes the history; copies only the messages it shows. Prefix-stable:
 * each message is shown as a function of itself alone, so appending to history only
 * appends to the result, and the memory up to `end` is a prefix of the whole memory when
 * `history[end]` is not a tool result.
 */
export function buildWorkingMemory(
  source: WorkingMemorySource,
  options: { toolOutputLimit?: number; end?: number } = {},
): Message[] {
  const limit = options.toolOutputLimit ?? TOOL_OUTPUT_LIMIT;
  const start = source.compaction?.compactedUntil ?? 0;
  const end = Math.min(options.end ?? source.history.length, source.history.length);
  const recent: Message[] = [];
  for (let index = start; index < end; index++) {
    const message = source.history[index];
    if (!message) continue;
    recent.push(
      message.role === "tool" && message.content.length > limit
        ? { ...message, content: truncateMiddle(message.content, limit) }
        : message,
    );
  }
  const repaired = repairPairing(recent);
  return source.compaction ? [summaryMessage(source.compaction.summary), ...repaired] : repaired;
}

/**
 * Makes tool calls and results pair up for a request: a call without a result gets a
 * synthetic `MISSING_RESULT` result placed right after that assistant message's other
 * results; a result whose call is not in the preceding assistant message (or that answers
 * a call twice) is dropped.
 * Contract: pure; returns a new array and never changes the given messages.
 */
export function repairPairing(messages: readonly Message[]): Message[] {
  const repaired: Message[] = [];
  let pending = new Map<string, boolean>();
  const flush = () => {
    for (const [id, answered] of pending) {
      if (!answered) repaired.push(missingResult(id));
    }
    pending = new Map();
  };
  for (const message of messages) {
    if (message.role === "tool") {
      if (pending.get(message.toolCallId) !== false) continue;
      pending.set(message.toolCallId, true);
      repaired.push(message);
      continue;
    }
    flush();
    if (message.role === "assistant") {
      for (const call of message.toolCalls) pending.set(call.id, false);
    }
    repaired.push(message);
  }
  flush();
  return repaired;
}

function missingResult(toolCallId: string): ToolResultMessage {
  return { role: "tool", toolCallId, content: MISSING_RESULT, isError: true };
}

function pairSafe(text: string, index: number): number {
  const code = text.charCodeAt(index - 1);
  return code >= 0xd800 && code <= 0xdbff ? index - 1 : index;
}
