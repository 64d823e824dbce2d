/**
 * A deterministic in-process model for agent-loop and compactor tests: it replays a
 * script of replies, streams their text through `onText`, and records every request.
 *
 * @module
 */
import {
  ChatError,
  type ChatModel,
  type ChatOptions,
  type ChatReply,
  type ChatRequest,
  type ReplyUsage,
} from "../../src/model/chat_model.ts";
import type { ToolCall } from "../../src/core/messages.ts";

/** One scripted reply: text, tool calls, or a failure thrown as the chat client would. */
export type ScriptStep =
  | string
  | { text?: string; toolCalls?: ToolCall[]; totalTokens?: number; usage?: ReplyUsage }
  | ChatError;

/** The reply when the script has run out: a summary-shaped answer. */
const DEFAULT_REPLY = "## User Goal\nread files\n## Next Steps\ncontinue";

/** Replays `steps` in order, one per `complete` call. */
export class ScriptedModel implements ChatModel {
  /** Every request received, in order. */
  readonly requests: ChatRequest[] = [];
  #steps: ScriptStep[];

  /** Creates a model that answers with `steps`, then with a default summary text. */
  constructor(steps: ScriptStep[]) {
    this.#steps = [...steps];
  }

  /** Answers the next step; text is streamed through `options.onText` first. */
  complete(request: ChatRequest, options: ChatOptions = {}): Promise<ChatReply> {
    this.requests.push(request);
    if (options.signal?.aborted) return Promise.reject(new ChatError("aborted", "Interrupted"));
    const step = this.#steps.shift() ?? DEFAULT_REPLY;
    if (step instanceof ChatError) return Promise.reject(step);
    const { text = "", toolCalls = [], totalTokens, usage } = typeof step === "string"
      ? { text: step }
      : step;
    if (text !== "") options.onText?.(text);
    return Promise.resolve({
      message: { role: "assistant", content: text, toolCalls },
      totalTokens,
      ...(usage ? { usage } : {}),
    });
  }
}

/** A tool call with JSON-encoded `args` (or raw text when `args` is a string). */
export function call(id: string, name: string, args: Record<string, unknown> | string): ToolCall {
  return { id, name, arguments: typeof args === "string" ? args : JSON.stringify(args) };
}
