/**
 * powercode's own conversation types. Only `src/chat.ts` converts them to and
 * from the provider's wire format.
 *
 * @module
 */

/** A tool call the model asked for; `arguments` is the raw JSON text the model wrote. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A task or a message typed by the person (or the compaction summary frame). */
export interface UserMessage {
  role: "user";
  content: string;
}

/** A model reply: text (possibly empty) and the tool calls it asked for, in order. */
export interface AssistantMessage {
  role: "assistant";
  content: string;
  toolCalls: ToolCall[];
}

/** The result of one tool call, answering the call with the same id. */
export interface ToolResultMessage {
  role: "tool";
  toolCallId: string;
  content: string;
}

/** One entry of the conversation history. */
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/** A tool as the model sees it: name, description and JSON schema of its arguments. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}
