/**
 * powercode's own conversation types. Only `src/model/` converts them to and
 * from the provider's wire format.
 *
 * @module
 */
import type { MessageImage } from "./image.ts";

/** A tool call the model asked for; `arguments` is the raw JSON text the model wrote. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
  /**
   * Provider-specific fields that came with the call and must go back with it to the same
   * provider, e.g. `{extra_content: {google: {thought_signature}}}` from Gemini.
   */
  extra?: Record<string, unknown>;
}

/** A task or a message typed by the person (or the compaction summary frame). */
export interface UserMessage {
  role: "user";
  content: string;
  /**
   * How the terminal showed the message when that differs from `content`: a large paste as
   * its `[pasted 901 lines]` label. Kept in history for the redraw; never sent to the model.
   */
  shown?: string;
  /** Images sent after the text, in order (only to a model that takes images). */
  images?: MessageImage[];
}

/** A model reply: text (possibly empty) and the tool calls it asked for, in order. */
export interface AssistantMessage {
  role: "assistant";
  content: string;
  toolCalls: ToolCall[];
  /** Reasoning the model streamed before answering; absent when it streamed none. */
  reasoning?: string;
  /**
   * True when the reasoning came as `reasoning_content` (DeepSeek, Kimi and others), which
   * thinking-mode providers require back on tool-call turns; it is never sent otherwise.
   */
  replayReasoning?: boolean;
  /**
   * The `<think>…</think>` block the provider sent at the start of the content (MiniMax, and
   * reasoning models served without a reasoning parser), with the whitespace after it, exactly
   * as sent: its text is also in `reasoning`, and it goes back before `content` in every later
   * request to the model that wrote it, so history holds the reply as sent (MiniMax asks for
   * that).
   */
  thinkBlock?: string;
  /**
   * The model that wrote this reply, kept when it carries provider fields (reasoning to send
   * back, a tool call's `extra`): those go back only to that model. Absent: the model of the
   * request it is sent in (sessions from before profiles).
   */
  model?: string;
}

/** The result of one tool call, answering the call with the same id. */
export interface ToolResultMessage {
  role: "tool";
  toolCallId: string;
  content: string;
  /** The call failed (see `ToolResult.isError`); kept in history, never sent to the model. */
  isError: boolean;
  /** The session file of the subagent that ran the call; kept in history, never sent. */
  session?: string;
}

/** One entry of the conversation history. */
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/** Every note powercode adds to history as a user message starts with this. */
export const NOTE_PREFIX = "[powercode] ";

/** Whether a user message is one of powercode's notes rather than what the person typed. */
export function isNote(content: string): boolean {
  return content.startsWith(NOTE_PREFIX);
}

/**
 * The first message the person typed in `history[from..to)`, past the notes powercode sent
 * with it (plan mode, unfinished TODO.md); a noted command (`!cmd`) counts when it carries
 * how it was shown. Undefined when there is none.
 */
export function firstTyped(
  history: readonly Message[],
  from = 0,
  to: number = history.length,
): UserMessage | undefined {
  for (let index = from; index < Math.min(to, history.length); index++) {
    const message = history[index];
    if (message?.role !== "user") continue;
    if (!isNote(message.content) || message.shown !== undefined) return message;
  }
  return undefined;
}

/** A tool as the model sees it: name, description and JSON schema of its arguments. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}
