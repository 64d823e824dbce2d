/**
 * Converts powercode's request into the chat-completions wire format, applying what
 * providers require of the history: reasoning sent back on thinking-mode tool-call
 * turns, provider fields kept on tool calls, tool-call arguments that are valid JSON.
 *
 * @module
 */
import type { ChatRequest } from "./chat_model.ts";
import type { AssistantMessage, Message, ToolDefinition } from "../core/mod.ts";

/** The request parameter that carries the output limit. */
export type OutputLimitField = "max_tokens" | "max_completion_tokens";

/** A tool call as sent back in history, with any provider fields it came with. */
interface WireToolCall {
  [field: string]: unknown;
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

interface WireAssistant {
  role: "assistant";
  content: string | null;
  "reasoning_content"?: string;
  "tool_calls"?: WireToolCall[];
}

/** A text content part, marked as a prompt-cache breakpoint. */
interface CachedTextPart {
  type: "text";
  text: string;
  "cache_control": { type: "ephemeral" };
}

type WireMessage =
  | { role: "system" | "user"; content: string | CachedTextPart[] }
  | { role: "tool"; tool_call_id: string; content: string | CachedTextPart[] }
  | WireAssistant;

interface WireTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** OpenAI's reasoning models (o1, o3, o4, gpt-5 families) reject `max_tokens`. */
const REASONING_MODEL = /(^|\/)(o1|o3|o4|gpt-5)([-.:_]|$)/i;

/**
 * The output-limit parameter for `model`: `field` when configured, else
 * `max_completion_tokens` for OpenAI's reasoning models and `max_tokens` for the rest.
 */
export function outputLimitField(model: string, field?: OutputLimitField): OutputLimitField {
  return field ?? (REASONING_MODEL.test(model) ? "max_completion_tokens" : "max_tokens");
}

/** How a request goes on the wire besides its content. */
export interface WireOptions {
  /** The output-limit parameter; by default chosen from the model name. */
  field?: OutputLimitField | undefined;
  /**
   * Marks the system prompt and the last message as Anthropic-style prompt-cache
   * breakpoints (two of the four allowed): the system prompt with the tools before it, and
   * the last message, which the next request reads back as its cached prefix.
   */
  cacheControl?: boolean;
}

/** The streaming request body for `model`. */
export function toWireRequest(model: string, request: ChatRequest, options: WireOptions = {}) {
  const messages: WireMessage[] = [
    { role: "system", content: request.system },
    ...mergeUserRuns(request.messages).map(toWireMessage),
  ];
  if (options.cacheControl) {
    markCacheBreakpoint(messages, 0);
    markCacheBreakpoint(messages, messages.length - 1);
  }
  const limit = request.maxOutputTokens
    ? { [outputLimitField(model, options.field)]: request.maxOutputTokens }
    : {};
  return {
    model,
    messages,
    stream: true as const,
    stream_options: { include_usage: true },
    ...(request.tools?.length ? { tools: request.tools.map(toWireTool) } : {}),
    ...limit,
  };
}

/**
 * Joins consecutive user messages (a summary frame followed by a task, a task whose
 * reply failed or was interrupted followed by the next one) into one, because chat
 * templates that require strict user/assistant alternation reject them otherwise.
 */
function mergeUserRuns(messages: readonly Message[]): Message[] {
  const merged: Message[] = [];
  for (const message of messages) {
    const last = merged.at(-1);
    if (message.role === "user" && last?.role === "user") {
      merged[merged.length - 1] = {
        role: "user",
        content: `${last.content}\n\n${message.content}`,
      };
    } else merged.push(message);
  }
  return merged;
}

/**
 * Turns a message's non-empty text into one text part marked for the prompt cache (an
 * empty text part is rejected). Anthropic reads a string and one text part alike, so the
 * cached prefix is the same whichever message carries the mark.
 */
function markCacheBreakpoint(messages: WireMessage[], index: number): void {
  const message = messages[index];
  if (message?.role === "assistant" || typeof message?.content !== "string") return;
  if (message.content === "") return;
  const parts: CachedTextPart[] = [
    { type: "text", text: message.content, "cache_control": { type: "ephemeral" } },
  ];
  messages[index] = { ...message, content: parts };
}

function toWireMessage(message: Message): WireMessage {
  switch (message.role) {
    case "user":
      return { role: "user", content: message.content };
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    case "assistant":
      return toWireAssistant(message);
    default: {
      const unknown: never = message;
      throw new TypeError(`Cannot send message: unknown role in ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * Contract: `reasoning_content` goes only on tool-call turns whose reasoning came as
 * `reasoning_content` (DeepSeek and Kimi thinking mode reject the next request without
 * it); arguments that are not a JSON object are sent as "{}" (the tool result already
 * told the model), so strict servers accept the history; history keeps the original.
 */
function toWireAssistant(message: AssistantMessage): WireAssistant {
  if (message.toolCalls.length === 0) return { role: "assistant", content: message.content };
  return {
    role: "assistant",
    content: message.content || null,
    ...(message.replayReasoning ? { reasoning_content: message.reasoning ?? "" } : {}),
    tool_calls: message.toolCalls.map((call): WireToolCall => ({
      ...call.extra,
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: jsonObjectText(call.arguments) },
    })),
  };
}

function jsonObjectText(text: string): string {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return text;
  } catch {
    // Falls through to the empty object.
  }
  return "{}";
}

function toWireTool(tool: ToolDefinition): WireTool {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}
