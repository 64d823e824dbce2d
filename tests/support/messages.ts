/**
 * Builders for the history fixtures of the context tests.
 *
 * @module
 */
import { pathsOf } from "./tool_paths.ts";
import { type CompactionState, Session } from "../../src/session/session.ts";
import type { Message } from "../../src/core/messages.ts";

/** An assistant message calling read_file once per id (`<id>.md`). */
export function calls(...ids: string[]): Message {
  return {
    role: "assistant",
    content: "",
    toolCalls: ids.map((id) => ({ id, name: "read_file", arguments: `{"path":"${id}.md"}` })),
  };
}

/** The tool result answering call `id`, a failed one when `isError`. */
export function result(id: string, content = `result ${id}`, isError = false): Message {
  return { role: "tool", toolCallId: id, content, isError };
}

/** A session holding `messages` (file lists from the real file tools), compacted to `compaction` when given. */
export function sessionOf(messages: Message[], compaction?: CompactionState): Session {
  return Session.fromRecords([
    ...messages.map((message) => ({ type: "message" as const, message })),
    ...(compaction
      ? [{ type: "compaction" as const, state: compaction, tokensBefore: 0, tokensAfter: 0 }]
      : []),
  ], { pathsOf });
}
