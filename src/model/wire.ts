/**
 * Converts powercode's request into the chat-completions wire format for one endpoint, as
 * its provider compat says: the output-limit field, cache marks, reasoning sent back on
 * thinking-mode tool-call turns, provider fields kept on tool calls, the tool-call id shape;
 * and, for every endpoint, tool-call arguments that are valid JSON.
 *
 * @module
 */
import type { ChatRequest } from "./chat_model.ts";
import type { ProviderCompat } from "./compat.ts";
import { effortFields } from "./reasoning_effort.ts";
import { alnum9ToolCallId } from "./tool_call_ids.ts";
import {
  type AssistantMessage,
  type Message,
  parseJsonObject,
  type ToolDefinition,
  type UserMessage,
} from "../core/mod.ts";

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

/** An image content part: the image's bytes as a base64 data URL. */
interface ImagePart {
  type: "image_url";
  "image_url": { url: string };
}

type WireMessage =
  | { role: "system" | "user"; content: string | CachedTextPart[] }
  | { role: "user"; content: ({ type: "text"; text: string } | ImagePart)[] }
  | { role: "tool"; tool_call_id: string; content: string | CachedTextPart[] }
  | WireAssistant;

interface WireTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/**
 * The streaming request body for `model`, shaped by `compat`.
 * Contract: pure; cache marks go on the system prompt (with the tools before it) and the
 * last message, two of the four breakpoints Anthropic allows.
 */
export function toWireRequest(model: string, request: ChatRequest, compat: ProviderCompat) {
  const messages: WireMessage[] = [
    { role: "system", content: request.system },
    ...mergeUserRuns(request.messages).map((message) => toWireMessage(message, compat, model)),
  ];
  if (compat.cacheControl) {
    markCacheBreakpoint(messages, 0);
    markCacheBreakpoint(messages, messages.length - 1);
  }
  const limit = request.maxOutputTokens
    ? { [compat.outputLimitField]: request.maxOutputTokens }
    : {};
  return {
    model,
    messages,
    stream: true as const,
    stream_options: { include_usage: true },
    ...(request.tools?.length ? { tools: request.tools.map(toWireTool) } : {}),
    ...limit,
    ...effortFields(compat.reasoningEffortField, request.reasoningEffort),
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
      const images = [...last.images ?? [], ...message.images ?? []];
      merged[merged.length - 1] = {
        role: "user",
        content: `${last.content}\n\n${message.content}`,
        ...(images.length > 0 ? { images } : {}),
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

function toWireMessage(message: Message, compat: ProviderCompat, model: string): WireMessage {
  switch (message.role) {
    case "user":
      return message.images?.length
        ? withImages(message)
        : { role: "user", content: message.content };
    case "tool": {
      const id = wireId(message.toolCallId, compat);
      return { role: "tool", tool_call_id: id, content: message.content };
    }
    case "assistant":
      return toWireAssistant(message, compat, model);
    default: {
      const unknown: never = message;
      throw new TypeError(`Cannot send message: unknown role in ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * Contract: a `<think>` block that came in the content goes back before it, as sent, to the
 * model that wrote it;
 * `reasoning_content` goes only on tool-call turns whose reasoning came as
 * `reasoning_content`, and only where the compat settings settings send it back; arguments that are not a
 * JSON object are sent as "{}" (the tool result already told the model), so strict servers
 * accept the history; history keeps the original. A reply another model wrote (switched
 * profiles) goes without its provider fields: no reasoning (an empty one where the compat
 * wants it on every tool-call turn), no `extra`.
 */
function toWireAssistant(
  message: AssistantMessage,
  compat: ProviderCompat,
  model: string,
): WireAssistant {
  const own = message.model === undefined || message.model === model;
  const content = (own ? message.thinkBlock ?? "" : "") + message.content;
  if (message.toolCalls.length === 0) return { role: "assistant", content };
  const replay = own && compat.replayReasoning && message.replayReasoning;
  const reasoning = replay ? message.reasoning ?? "" : compat.reasoningOnToolCalls ? "" : undefined;
  return {
    role: "assistant",
    content: content || null,
    ...(reasoning !== undefined ? { reasoning_content: reasoning } : {}),
    tool_calls: message.toolCalls.map((call): WireToolCall => ({
      ...(own && compat.extraContent ? call.extra : {}),
      id: wireId(call.id, compat),
      type: "function",
      function: {
        name: call.name,
        arguments: parseJsonObject(call.arguments).ok ? call.arguments : "{}",
      },
    })),
  };
}

/** A user message with images: its text part (when it has text), then one part per image. */
function withImages(message: UserMessage): WireMessage {
  const text = message.content === "" ? [] : [{ type: "text" as const, text: message.content }];
  const images = (message.images ?? []).map((image): ImagePart => ({
    type: "image_url",
    "image_url": { url: `data:${image.mediaType};base64,${image.data}` },
  }));
  return { role: "user", content: [...text, ...images] };
}

function wireId(id: string, compat: ProviderCompat): string {
  return compat.toolCallIds === "alnum9" ? alnum9ToolCallId(id) : id;
}

function toWireTool(tool: ToolDefinition): WireTool {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}
