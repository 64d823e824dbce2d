/**
 * A fake OpenAI-compatible chat-completions server on 127.0.0.1 for tests: it validates
 * every request as strictly as the real API, counts prompt tokens with a real tokenizer,
 * replays scripted replies (JSON or SSE) and records every request it receives.
 *
 * Request types and validation live in `chat_request.ts`, the handler contract and reply
 * types in `replies.ts`, JSON/SSE rendering in `sse.ts`; their public types are re-exported
 * here.
 *
 * @module
 */
import {
  type ChatRequest,
  checkToolPairing,
  parseChatRequest,
  readJson,
  RequestError,
} from "./chat_request.ts";
import { ProviderRejection, type ProviderRule } from "./provider_rules.ts";
import {
  checkReply,
  type HandledRequest,
  type Handler,
  type OpenAIErrorBody,
  type RawReply,
  type RecordedRequest,
  type Reply,
  serverError,
  type TextReply,
  type ToolCallsReply,
} from "./replies.ts";
import { answerResponse, answerUsage, scriptedBody, sleep, toAnswer } from "./sse.ts";
import { countPromptTokens } from "./tokens.ts";
import { PromptCache } from "./prompt_cache.ts";

export type {
  AssistantMessage,
  ChatMessage,
  ChatRequest,
  TextMessage,
  ToolDefinition,
  ToolMessage,
  WireToolCall,
} from "./chat_request.ts";
export type {
  DropReply,
  ErrorReply,
  HandledRequest,
  Handler,
  HangReply,
  RawReply,
  RecordedHeaders,
  RecordedRequest,
  Reply,
  ReplyTiming,
  TextReply,
  ToolCallSpec,
  ToolCallsReply,
} from "./replies.ts";

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
  /**
   * Report `prompt_tokens_details.cached_tokens`: the tokens of the longest leading run of
   * [tools, messages…] a request shares with an earlier answered one. Default false.
   */
  promptCache?: boolean;
  /** A provider's own checks of the request body, e.g. `requireReasoningContent()`. */
  rules?: readonly ProviderRule[];
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

class ServerState {
  readonly requests: RecordedRequest[] = [];
  readonly closing = new AbortController();
  #handlerCalls = 0;
  #callIds = 0;
  #completions = 0;
  #cache = new PromptCache();

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
      if (error instanceof ProviderRejection) {
        record.status = error.status;
        record.rejection = error.message;
        return Response.json(error.body, { status: error.status });
      }
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
    for (const rule of this.options.rules ?? []) rule(record.raw);
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
      case "raw":
        await sleep(reply.delayMs ?? 0, signal);
        return this.#raw(reply, record);
      default: {
        const never: never = reply;
        throw new TypeError(`Cannot answer: unknown reply ${JSON.stringify(never)}`);
      }
    }
  }
  #raw(reply: RawReply, record: RecordedRequest): Response {
    record.status = reply.status;
    if (reply.status >= 400) {
      const decoder = new TextDecoder();
      record.rejection = reply.parts.map((part) =>
        typeof part === "string" ? part : decoder.decode(part)
      ).join("");
    }
    const body = scriptedBody(reply.parts, {
      chunkDelayMs: reply.chunkDelayMs ?? 0,
      dropAfter: undefined,
      signal: this.closing.signal,
      onCancel: () => record.clientAborted = true,
    });
    const headers = new Headers(reply.headers);
    if (reply.contentType) headers.set("content-type", reply.contentType);
    return new Response(body, { status: reply.status, headers });
  }

  #answer(
    reply: TextReply | ToolCallsReply,
    record: RecordedRequest,
    body: ChatRequest,
    dropAfter: number | undefined,
  ): Response {
    const answer = toAnswer(reply, () => `call_${++this.#callIds}`);
    const cached = this.options.promptCache ? this.#cache.serve(body) : undefined;
    const usage = this.options.sendUsage === false
      ? undefined
      : answerUsage(answer, record.promptTokens, cached);
    const meta = {
      id: `chatcmpl-fake-${++this.#completions}`,
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      "system_fingerprint": "fp_fake",
    };
    record.status = 200;
    return answerResponse(answer, {
      meta,
      usage,
      stream: body.stream,
      includeUsage: body.includeUsage,
      chunkSize: reply.type === "text" ? reply.chunkSize : undefined,
      chunkDelayMs: reply.chunkDelayMs ?? 0,
      dropAfter,
      signal: this.closing.signal,
      onCancel: () => record.clientAborted = true,
    });
  }
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

function isHandled(record: RecordedRequest): record is HandledRequest {
  return record.body !== undefined;
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
