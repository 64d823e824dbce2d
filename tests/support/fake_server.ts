/**
 * A fake OpenAI-compatible chat-completions server on 127.0.0.1 for tests: it validates
 * every request as strictly as the real API, counts prompt tokens with a real tokenizer,
 * replays scripted replies (JSON or SSE) and records every request it receives.
 *
 * @module
 */
import { countPromptTokens, countTextTokens } from "./tokens.ts";

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
  /** Message text. */
  content: string;
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

/** Headers of interest of a recorded request. */
export interface RecordedHeaders {
  /** `Authorization` header, e.g. `"Bearer sk-test"`. */
  authorization: string | null;
  /** `Content-Type` header. */
  contentType: string | null;
  /** `Accept` header. */
  accept: string | null;
}

/** One request the server received, recorded in arrival order. */
export interface RecordedRequest {
  /** HTTP method. */
  method: string;
  /** URL path, e.g. `/v1/chat/completions`. */
  path: string;
  /** Headers of interest. */
  headers: RecordedHeaders;
  /** The body as parsed JSON; `undefined` when there was none or it was not JSON. */
  raw: unknown;
  /** The validated body; `undefined` when its shape was invalid or it is not a chat request. */
  body: ChatRequest | undefined;
  /** Prompt tokens as counted by {@link countPromptTokens}; 0 without a valid body. */
  promptTokens: number;
  /** HTTP status sent; 0 while the reply is pending. */
  status: number;
  /** Error message of any non-2xx response (validation or scripted), else `undefined`. */
  rejection: string | undefined;
  /** True when the client went away while a streamed body was still being sent. */
  clientAborted: boolean;
}

/** A valid chat request, as handed to a {@link Handler}. */
export interface HandledRequest extends RecordedRequest {
  /** The validated body. */
  body: ChatRequest;
}

/** Delays of the replies that answer. */
export interface ReplyTiming {
  /** Wait this long before sending the response headers. */
  readonly delayMs?: number;
  /** Wait this long before each streamed chunk after the first (streaming only). */
  readonly chunkDelayMs?: number;
}

/** A text answer, finished with `"stop"` unless told otherwise. */
export interface TextReply extends ReplyTiming {
  readonly type: "text";
  /** Answer text. */
  readonly content: string;
  /** Characters per streamed piece; by default the content streams in up to 8 pieces. */
  readonly chunkSize?: number;
  /** Finish reason; `"length"` simulates an answer cut at the token limit. */
  readonly finishReason?: "stop" | "length";
}

/** One scripted tool call. */
export interface ToolCallSpec {
  /** Function name. */
  readonly name: string;
  /** Arguments as JSON text (sent as is, so it may be deliberately invalid). */
  readonly arguments: string;
  /** Call id; by default `call_<n>`, unique per server. */
  readonly id?: string;
}

/** An answer with tool calls, optionally preceded by text; finishes with `"tool_calls"`. */
export interface ToolCallsReply extends ReplyTiming {
  readonly type: "tool_calls";
  /** The calls, in order; at least one. */
  readonly calls: readonly ToolCallSpec[];
  /** Text sent before the calls. */
  readonly content?: string;
}

/** An HTTP error with an OpenAI-style body `{error: {message, type, param, code}}`. */
export interface ErrorReply {
  readonly type: "error";
  /** HTTP status, e.g. 429 or 500. */
  readonly status: number;
  /** `error.message`. */
  readonly message: string;
  /** `error.code`; default `null`. */
  readonly code?: string | null;
  /** `error.type`; default by status (`requests` for 429, `server_error` for 5xx). */
  readonly errorType?: string;
  /** Extra response headers, e.g. `{"retry-after": "2"}`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A whole body replacing the OpenAI-style one, e.g. another provider's error shape. */
  readonly body?: unknown;
  /** Wait this long before answering. */
  readonly delayMs?: number;
}

/**
 * A reply whose connection is cut: a streaming request gets the first `afterChunks` SSE
 * events of `reply` and then a reset connection; a non-streaming one gets half its JSON.
 */
export interface DropReply {
  readonly type: "drop";
  /** The answer that is being sent when the connection drops. */
  readonly reply: TextReply | ToolCallsReply;
  /** SSE events sent before the drop (the role chunk counts as one). */
  readonly afterChunks: number;
  /** Wait this long before sending the response headers. */
  readonly delayMs?: number;
}

/** No response at all until the server closes (for client timeouts and interrupts). */
export interface HangReply {
  readonly type: "hang";
}

/** What a {@link Handler} answers to one valid chat request. */
export type Reply = TextReply | ToolCallsReply | ErrorReply | DropReply | HangReply;

/** Decides the reply to a valid chat request; `index` counts handler calls from 0. */
export type Handler = (request: HandledRequest, index: number) => Reply | Promise<Reply>;

/** Options of {@link startFakeServer}. */
export interface FakeServerOptions {
  /** Scripted replies. Exceptions it throws become a 500 naming the error. */
  handler: Handler;
  /** The only model served; others get 404 `model_not_found`. Default: any model. */
  model?: string;
  /** Context window in tokens. Default 128000. */
  contextWindow?: number;
  /** The only accepted API key; others get 401 `invalid_api_key`. Default: any key. */
  apiKey?: string;
  /** Set false for a server that never reports usage. Default true. */
  sendUsage?: boolean;
}

/** A running fake server. */
export interface FakeServer extends AsyncDisposable {
  /** Base URL for the SDK, e.g. `http://127.0.0.1:41234/v1`. */
  readonly url: string;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Stop the server, ending hanging and slow replies. Idempotent. */
  close(): Promise<void>;
}

const DEFAULT_CONTEXT_WINDOW = 128_000;

/**
 * Start a fake OpenAI-compatible server on 127.0.0.1 with a free port.
 *
 * Contract: every request is recorded before it is answered; invalid requests get the
 * real API's 400/401/404 JSON errors and never reach the handler.
 */
export async function startFakeServer(options: FakeServerOptions): Promise<FakeServer> {
  const state = new ServerState(options);
  const listening = Promise.withResolvers<void>();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => listening.resolve() },
    (request) => state.handle(request),
  );
  await listening.promise;
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      state.closing.abort();
      await server.shutdown();
    })();
    return closed;
  };
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    requests: state.requests,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Thrown by validation; becomes an OpenAI-style error response. */
class RequestError extends Error {
  constructor(
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
    readonly status = 400,
  ) {
    super(message);
  }
}

class ServerState {
  readonly requests: RecordedRequest[] = [];
  readonly closing = new AbortController();
  #handlerCalls = 0;
  #callIds = 0;
  #completions = 0;

  constructor(readonly options: FakeServerOptions) {}

  async handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const record: RecordedRequest = {
      method: request.method,
      path: url.pathname,
      headers: {
        authorization: request.headers.get("authorization"),
        contentType: request.headers.get("content-type"),
        accept: request.headers.get("accept"),
      },
      raw: undefined,
      body: undefined,
      promptTokens: 0,
      status: 0,
      rejection: undefined,
      clientAborted: false,
    };
    this.requests.push(record);
    try {
      return await this.#route(request, record);
    } catch (error) {
      if (!(error instanceof RequestError)) throw error;
      return errorResponse(record, error.status, {
        message: error.message,
        type: "invalid_request_error",
        param: error.param,
        code: error.code,
      });
    }
  }

  async #route(request: Request, record: RecordedRequest): Promise<Response> {
    const route = `${request.method} ${record.path}`;
    if (route !== "GET /v1/models" && route !== "POST /v1/chat/completions") {
      throw new RequestError(`Invalid URL (${route})`, null, null, 404);
    }
    this.#checkKey(record.headers.authorization);
    if (route === "GET /v1/models") {
      record.status = 200;
      const id = this.options.model ?? "fake-model";
      const model = { id, object: "model", created: 0, "owned_by": "fake" };
      return Response.json({ object: "list", data: [model] });
    }
    record.raw = await readJson(request);
    const body = parseChatRequest(record.raw);
    record.body = body;
    record.promptTokens = countPromptTokens(body);
    this.#checkModel(body.model);
    checkToolPairing(body.messages);
    checkContextLength(record.promptTokens, body.maxTokens, this.options.contextWindow);
    if (!isHandled(record)) throw new TypeError("Cannot handle request: body was not recorded");
    const index = this.#handlerCalls++;
    let reply: Reply;
    try {
      reply = checkReply(await this.options.handler(record, index));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      reply = { type: "error", status: 500, message: `Fake server handler threw: ${message}` };
    }
    return await this.#reply(reply, record, body);
  }

  #checkKey(authorization: string | null): void {
    const expected = this.options.apiKey;
    if (expected === undefined) return;
    const match = /^Bearer (.*)$/.exec(authorization ?? "");
    if (match === null) {
      throw new RequestError(
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
        null,
        null,
        401,
      );
    }
    const key = match[1] ?? "";
    if (key !== expected) {
      const shown = key.length > 8 ? `${key.slice(0, 3)}*****${key.slice(-4)}` : key;
      throw new RequestError(
        `Incorrect API key provided: ${shown}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        null,
        "invalid_api_key",
        401,
      );
    }
  }

  #checkModel(model: string): void {
    if (this.options.model === undefined || model === this.options.model) return;
    throw new RequestError(
      `The model \`${model}\` does not exist or you do not have access to it.`,
      null,
      "model_not_found",
      404,
    );
  }

  async #reply(reply: Reply, record: RecordedRequest, body: ChatRequest): Promise<Response> {
    const signal = this.closing.signal;
    switch (reply.type) {
      case "hang":
        await sleep(Number.POSITIVE_INFINITY, signal);
        return errorResponse(record, 503, serverError(503, "Fake server closed during hang"));
      case "error":
        await sleep(reply.delayMs ?? 0, signal);
        return errorResponse(
          record,
          reply.status,
          serverError(reply.status, reply.message, reply),
          {
            headers: reply.headers,
            body: reply.body,
          },
        );
      case "drop":
        await sleep(reply.delayMs ?? 0, signal);
        return this.#answer(reply.reply, record, body, reply.afterChunks);
      case "text":
      case "tool_calls":
        await sleep(reply.delayMs ?? 0, signal);
        return this.#answer(reply, record, body, undefined);
      default: {
        const never: never = reply;
        throw new TypeError(`Cannot answer: unknown reply ${JSON.stringify(never)}`);
      }
    }
  }

  #answer(
    reply: TextReply | ToolCallsReply,
    record: RecordedRequest,
    body: ChatRequest,
    dropAfter: number | undefined,
  ): Response {
    const answer = toAnswer(reply, () => `call_${++this.#callIds}`);
    const completionTokens = answer.calls.reduce(
      (sum, call) => sum + countTextTokens(call.name) + countTextTokens(call.arguments),
      countTextTokens(answer.content ?? ""),
    );
    const usage = this.options.sendUsage === false ? undefined : {
      "prompt_tokens": record.promptTokens,
      "completion_tokens": completionTokens,
      "total_tokens": record.promptTokens + completionTokens,
    };
    const meta = {
      id: `chatcmpl-fake-${++this.#completions}`,
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      "system_fingerprint": "fp_fake",
    };
    record.status = 200;
    const signal = this.closing.signal;
    const onCancel = () => record.clientAborted = true;
    if (!body.stream) {
      const json = JSON.stringify(completionJson(answer, meta, usage));
      const headers = { "content-type": "application/json" };
      if (dropAfter === undefined) return new Response(json, { headers });
      const half = json.slice(0, Math.floor(json.length / 2));
      return new Response(scriptedBody([half], { dropAfter: 1, signal, onCancel }), { headers });
    }
    const chunkSize = reply.type === "text" ? reply.chunkSize : undefined;
    const events = sseEvents(answer, meta, body.includeUsage ? usage : undefined, chunkSize);
    const parts = events.map((event) => `data: ${event}\n\n`);
    const stream = scriptedBody(parts, {
      chunkDelayMs: reply.chunkDelayMs ?? 0,
      dropAfter,
      signal,
      onCancel,
    });
    return new Response(stream, {
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
    });
  }
}

interface OpenAIErrorBody {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

function serverError(
  status: number,
  message: string,
  reply?: ErrorReply,
): OpenAIErrorBody {
  const type = reply?.errorType ??
    (status === 429 ? "requests" : status >= 500 ? "server_error" : "invalid_request_error");
  return { message, type, param: null, code: reply?.code ?? null };
}

function errorResponse(
  record: RecordedRequest,
  status: number,
  error: OpenAIErrorBody,
  extra: { headers?: Readonly<Record<string, string>> | undefined; body?: unknown } = {},
): Response {
  record.status = status;
  record.rejection = error.message;
  const body = extra.body === undefined ? { error } : extra.body;
  const headers = { "content-type": "application/json", ...extra.headers };
  return new Response(JSON.stringify(body), { status, headers });
}

async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new RequestError(
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.",
    );
  }
}

/** Resolves after `ms`, or early (returning false) when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = Number.isFinite(ms)
      ? setTimeout(() => {
        signal.removeEventListener("abort", onAbort);
        resolve(true);
      }, ms)
      : undefined;
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function isHandled(record: RecordedRequest): record is HandledRequest {
  return record.body !== undefined;
}

function checkReply(reply: Reply): Reply {
  if (reply.type === "tool_calls" && reply.calls.length === 0) {
    throw new TypeError("Cannot send a tool_calls reply: it has no calls");
  }
  return reply;
}

// ---- Request validation, with the real API's wording ----

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a decimal";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function missing(param: string): RequestError {
  return new RequestError(
    `Missing required parameter: '${param}'.`,
    param,
    "missing_required_parameter",
  );
}

function invalidType(param: string, expected: string, value: unknown): RequestError {
  const message = `Invalid type for '${param}': expected ${expected}, but got ${
    describe(value)
  } instead.`;
  return new RequestError(message, param, "invalid_type");
}

function requireString(value: unknown, param: string): string {
  if (value === undefined) throw missing(param);
  if (typeof value !== "string") throw invalidType(param, "a string", value);
  return value;
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

function parseChatRequest(raw: unknown): ChatRequest {
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
    case "user":
      return { role, content: requireString(value.content, `${param}.content`) };
    case "tool":
      return {
        role,
        content: requireString(value.content, `${param}.content`),
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

/** Tool calls must be answered, in any order, before the next non-tool message. */
function checkToolPairing(messages: readonly ChatMessage[]): void {
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

function checkContextLength(
  promptTokens: number,
  maxTokens: number | undefined,
  contextWindow = DEFAULT_CONTEXT_WINDOW,
): void {
  const requested = promptTokens + (maxTokens ?? 0);
  if (requested <= contextWindow) return;
  const limit = `This model's maximum context length is ${contextWindow} tokens.`;
  const message = maxTokens === undefined
    ? `${limit} However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`
    : `${limit} However, you requested ${requested} tokens (${promptTokens} in the messages, ${maxTokens} in the completion). Please reduce the length of the messages or completion.`;
  throw new RequestError(message, "messages", "context_length_exceeded");
}

// ---- Rendering replies as chat.completion JSON or SSE chunks ----

interface Answer {
  content: string | null;
  calls: { id: string; name: string; arguments: string }[];
  finishReason: "stop" | "length" | "tool_calls";
}

interface CompletionMeta {
  id: string;
  created: number;
  model: string;
  "system_fingerprint": string;
}

interface Usage {
  "prompt_tokens": number;
  "completion_tokens": number;
  "total_tokens": number;
}

function toAnswer(reply: TextReply | ToolCallsReply, nextId: () => string): Answer {
  if (reply.type === "text") {
    return { content: reply.content, calls: [], finishReason: reply.finishReason ?? "stop" };
  }
  const calls = reply.calls.map((call) => ({
    id: call.id ?? nextId(),
    name: call.name,
    arguments: call.arguments,
  }));
  return { content: reply.content ?? null, calls, finishReason: "tool_calls" };
}

function wireCall(call: Answer["calls"][number]): WireToolCall {
  return {
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  };
}

function completionJson(answer: Answer, meta: CompletionMeta, usage: Usage | undefined) {
  const message = {
    role: "assistant",
    content: answer.content,
    refusal: null,
    ...(answer.calls.length > 0 ? { tool_calls: answer.calls.map(wireCall) } : {}),
  };
  return {
    ...meta,
    object: "chat.completion",
    choices: [{ index: 0, message, logprobs: null, finish_reason: answer.finishReason }],
    ...(usage === undefined ? {} : { usage }),
  };
}

/** Code-point-safe pieces of `size` characters, by default `maxPieces` even pieces. */
function splitPieces(text: string, maxPieces: number, size?: number): string[] {
  const chars = Array.from(text);
  const step = Math.max(1, size ?? Math.ceil(chars.length / maxPieces));
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += step) pieces.push(chars.slice(i, i + step).join(""));
  return pieces;
}

/** The `data:` payloads of a streamed answer, like OpenAI's, ending with `[DONE]`. */
function sseEvents(
  answer: Answer,
  meta: CompletionMeta,
  usage: Usage | undefined,
  chunkSize: number | undefined,
): string[] {
  const usageField = usage === undefined ? {} : { usage: null };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
    JSON.stringify({
      ...meta,
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...usageField,
    });
  const initial = answer.calls.length > 0 && answer.content === null ? null : "";
  const events = [chunk({ role: "assistant", content: initial, refusal: null }, null)];
  for (const piece of splitPieces(answer.content ?? "", 8, chunkSize)) {
    events.push(chunk({ content: piece }, null));
  }
  answer.calls.forEach((call, index) => {
    const head = {
      index,
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: "" },
    };
    events.push(chunk({ tool_calls: [head] }, null));
    for (const piece of splitPieces(call.arguments, 3)) {
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null));
    }
  });
  events.push(chunk({}, answer.finishReason));
  if (usage !== undefined) {
    events.push(JSON.stringify({ ...meta, object: "chat.completion.chunk", choices: [], usage }));
  }
  events.push("[DONE]");
  return events;
}

interface BodyOptions {
  chunkDelayMs?: number;
  dropAfter: number | undefined;
  signal: AbortSignal;
  onCancel: () => void;
}

/**
 * A body sending `parts` one by one, cutting the connection after `dropAfter` parts and
 * ending early when the server closes.
 */
function scriptedBody(parts: readonly string[], options: BodyOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const cancelled = new AbortController();
  const stop = AbortSignal.any([options.signal, cancelled.signal]);
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (options.dropAfter !== undefined && sent >= options.dropAfter) {
        // A string reason keeps Deno's log of the reset connection to one line.
        controller.error(`fake_server: scripted drop after ${sent} of ${parts.length} chunks`);
        return;
      }
      const part = parts[sent];
      if (part === undefined) return controller.close();
      if (sent > 0 && !(await sleep(options.chunkDelayMs ?? 0, stop))) {
        if (!cancelled.signal.aborted) controller.close();
        return;
      }
      controller.enqueue(encoder.encode(part));
      sent++;
    },
    cancel() {
      cancelled.abort();
      options.onCancel();
    },
  });
}
