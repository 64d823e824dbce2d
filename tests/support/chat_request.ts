/**
 * The chat-completions request the fake server accepts: its wire types, and validation
 * that rejects what the real API rejects, with the real API's wording.
 *
 * @module
 */
import {
  cacheBreakpoints,
  MAX_CACHE_BREAKPOINTS,
  parseContent,
  parseUserContent,
} from "./content_parts.ts";
import type { WireImage } from "./image_parts.ts";
import {
  describe,
  invalidType,
  isRecord,
  missing,
  RequestError,
  requireString,
} from "./request_checks.ts";

export { RequestError } from "./request_checks.ts";
export type { WireImage } from "./image_parts.ts";

/** A tool call inside an assistant message, as sent on the wire. */
export interface WireToolCall {
  /** Call id, answered by a tool message with the same `tool_call_id`. */
  id: string;
  /** Always `"function"`. */
  type: "function";
  /** Called function: name and JSON arguments text. */
  function: { name: string; arguments: string };
}

/** A system or user message. */
export interface TextMessage {
  /** Who wrote it. */
  role: "system" | "user";
  /** Message text: its text parts joined. */
  content: string;
  /** The `image_url` parts of a user message, in order; absent when it has none. */
  images?: WireImage[];
}

/** An assistant message; `content` is `null` only when `tool_calls` is present. */
export interface AssistantMessage {
  /** Always `"assistant"`. */
  role: "assistant";
  /** Reply text; a missing content is recorded as `null`. */
  content: string | null;
  /** Requested tool calls, never empty when present. */
  "tool_calls"?: WireToolCall[];
}

/** A tool result answering one call of the preceding assistant message. */
export interface ToolMessage {
  /** Always `"tool"`. */
  role: "tool";
  /** Result text. */
  content: string;
  /** Id of the answered call. */
  "tool_call_id": string;
}

/** One message of a validated request. */
export type ChatMessage = TextMessage | AssistantMessage | ToolMessage;

/** A function tool definition. */
export interface ToolDefinition {
  /** Always `"function"`. */
  type: "function";
  /** Name, description and JSON schema of the function. */
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

/** The validated view of a chat-completions request body (the exact JSON is `raw`). */
export interface ChatRequest {
  /** Requested model. */
  model: string;
  /** Conversation, in order. */
  messages: ChatMessage[];
  /** Tool definitions; absent when the request has no `tools` key. */
  tools?: ToolDefinition[];
  /** Whether the reply is streamed as SSE. */
  stream: boolean;
  /** Whether a streamed reply ends with a usage chunk. */
  includeUsage: boolean;
  /** `max_tokens ?? max_completion_tokens`, when either is set. */
  maxTokens?: number;
}

/** The request body as parsed JSON; a body that is not JSON is a {@link RequestError}. */
export async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new RequestError(
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.",
    );
  }
}

function optionalPositiveInt(body: Record<string, unknown>, key: string): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw invalidType(key, "an integer", value);
  }
  if (value < 1) {
    throw new RequestError(
      `Invalid '${key}': integer below minimum value. Expected a value >= 1, but got ${value} instead.`,
      key,
      "integer_below_min_value",
    );
  }
  return value;
}

/**
 * Validate a parsed request body into a {@link ChatRequest}.
 *
 * Contract: throws a {@link RequestError} naming the first invalid parameter.
 */
export function parseChatRequest(raw: unknown): ChatRequest {
  if (!isRecord(raw)) throw invalidType("body", "an object", raw);
  const model = requireString(raw.model, "model");
  if (raw.messages === undefined) throw missing("messages");
  if (!Array.isArray(raw.messages)) throw invalidType("messages", "an array", raw.messages);
  if (raw.messages.length === 0) {
    throw new RequestError(
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      "messages",
      "empty_array",
    );
  }
  const messages = raw.messages.map((message: unknown, i) =>
    parseMessage(message, `messages[${i}]`)
  );
  if (raw.stream !== undefined && raw.stream !== null && typeof raw.stream !== "boolean") {
    throw invalidType("stream", "a boolean", raw.stream);
  }
  const marks = cacheBreakpoints(raw);
  if (marks > MAX_CACHE_BREAKPOINTS) {
    throw new RequestError(
      `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${marks}.`,
      "messages",
    );
  }
  const stream = raw.stream === true;
  const request: ChatRequest = { model, messages, stream, includeUsage: parseStreamOptions(raw) };
  if (raw.tools !== undefined && raw.tools !== null) request.tools = parseTools(raw.tools);
  for (const key of ["tool_choice", "parallel_tool_calls"]) {
    if (raw[key] !== undefined && raw[key] !== null && request.tools === undefined) {
      throw new RequestError(
        `Invalid value for '${key}': '${key}' is only allowed when 'tools' are specified.`,
        key,
      );
    }
  }
  const maxTokens = optionalPositiveInt(raw, "max_tokens") ??
    optionalPositiveInt(raw, "max_completion_tokens");
  if (maxTokens !== undefined) request.maxTokens = maxTokens;
  return request;
}

function parseStreamOptions(raw: Record<string, unknown>): boolean {
  const options = raw.stream_options;
  if (options === undefined || options === null) return false;
  if (raw.stream !== true) {
    throw new RequestError(
      "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
      "stream_options",
    );
  }
  if (!isRecord(options)) throw invalidType("stream_options", "an object", options);
  const include = options.include_usage;
  if (include !== undefined && typeof include !== "boolean") {
    throw invalidType("stream_options.include_usage", "a boolean", include);
  }
  return include === true;
}

function parseMessage(value: unknown, param: string): ChatMessage {
  if (!isRecord(value)) throw invalidType(param, "an object", value);
  const role = value.role;
  switch (role) {
    case "system":
      return { role, content: parseContent(value.content, `${param}.content`) };
    case "user": {
      const { text, images } = parseUserContent(value.content, `${param}.content`);
      return { role, content: text, ...(images.length > 0 ? { images } : {}) };
    }
    case "tool":
      return {
        role,
        content: parseContent(value.content, `${param}.content`),
        "tool_call_id": requireString(value.tool_call_id, `${param}.tool_call_id`),
      };
    case "assistant":
      return parseAssistant(value, param);
    case undefined:
      throw missing(`${param}.role`);
    default:
      throw new RequestError(
        `Invalid value: '${
          String(role)
        }'. Supported values are: 'system', 'assistant', 'user' and 'tool'.`,
        `${param}.role`,
        "invalid_value",
      );
  }
}

function parseAssistant(value: Record<string, unknown>, param: string): AssistantMessage {
  const calls = value.tool_calls;
  if (calls === undefined || calls === null) {
    return { role: "assistant", content: requireString(value.content, `${param}.content`) };
  }
  if (!Array.isArray(calls)) throw invalidType(`${param}.tool_calls`, "an array", calls);
  if (calls.length === 0) {
    throw new RequestError(`[] is too short - '${param}.tool_calls'`, `${param}.tool_calls`);
  }
  const content = value.content === undefined || value.content === null
    ? null
    : requireString(value.content, `${param}.content`);
  const toolCalls = calls.map((call: unknown, j) =>
    parseToolCall(call, `${param}.tool_calls[${j}]`)
  );
  return { role: "assistant", content, tool_calls: toolCalls };
}

function parseToolCall(value: unknown, param: string): WireToolCall {
  if (!isRecord(value)) throw invalidType(param, "an object", value);
  const id = requireString(value.id, `${param}.id`);
  if (value.type !== "function") {
    requireString(value.type, `${param}.type`);
    throw new RequestError(
      `Invalid value: '${String(value.type)}'. Supported values are: 'function'.`,
      `${param}.type`,
      "invalid_value",
    );
  }
  const fn = value.function;
  if (fn === undefined) throw missing(`${param}.function`);
  if (!isRecord(fn)) throw invalidType(`${param}.function`, "an object", fn);
  const name = requireString(fn.name, `${param}.function.name`);
  const args = requireString(fn.arguments, `${param}.function.arguments`);
  return { id, type: "function", function: { name, arguments: args } };
}

function parseTools(value: unknown): ToolDefinition[] {
  if (!Array.isArray(value)) throw invalidType("tools", "an array", value);
  if (value.length === 0) throw new RequestError("[] is too short - 'tools'", "tools");
  return value.map((tool: unknown, i) => parseTool(tool, `tools[${i}]`));
}

function parseTool(tool: unknown, param: string): ToolDefinition {
  if (!isRecord(tool)) throw invalidType(param, "an object", tool);
  if (tool.type !== "function") {
    if (tool.type === undefined) throw missing(`${param}.type`);
    throw new RequestError(
      `Invalid value: '${String(tool.type)}'. Supported values are: 'function'.`,
      `${param}.type`,
      "invalid_value",
    );
  }
  if (tool.function === undefined) throw missing(`${param}.function`);
  if (!isRecord(tool.function)) throw invalidType(`${param}.function`, "an object", tool.function);
  const { name, description, parameters } = tool.function;
  const definition: ToolDefinition = {
    type: "function",
    function: { name: requireString(name, `${param}.function.name`) },
  };
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(definition.function.name)) {
    throw new RequestError(
      `Invalid '${param}.function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
      `${param}.function.name`,
      "invalid_value",
    );
  }
  if (description !== undefined) {
    definition.function.description = requireString(description, `${param}.function.description`);
  }
  if (parameters !== undefined) {
    if (!isRecord(parameters) || parameters.type !== "object") {
      const got = isRecord(parameters) ? String(parameters.type ?? "None") : describe(parameters);
      throw new RequestError(
        `Invalid schema for function '${definition.function.name}': schema must be a JSON Schema of 'type: "object"', got 'type: "${got}"'.`,
        `${param}.function.parameters`,
        "invalid_function_parameters",
      );
    }
    definition.function.parameters = parameters;
  }
  return definition;
}

/**
 * Check that tool calls are answered, in any order, before the next non-tool message.
 *
 * Contract: throws a {@link RequestError} worded like the real API's.
 */
export function checkToolPairing(messages: readonly ChatMessage[]): void {
  let pending = new Set<string>();
  let callerIndex = -1;
  const unanswered = () =>
    new RequestError(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${
        [...pending].join(", ")
      }`,
      `messages.[${callerIndex}].role`,
    );
  messages.forEach((message, i) => {
    if (message.role === "tool") {
      if (pending.delete(message.tool_call_id)) return;
      throw new RequestError(
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        `messages.[${i}].role`,
      );
    }
    if (pending.size > 0) throw unanswered();
    const calls = message.role === "assistant" ? message.tool_calls ?? [] : [];
    pending = new Set(calls.map((call) => call.id));
    callerIndex = i;
  });
  if (pending.size > 0) throw unanswered();
}
