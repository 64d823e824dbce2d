/**
 * The chat client: powercode's only door to `npm:openai`. Streams replies from
 * any OpenAI-compatible chat-completions endpoint and retries transient failures.
 *
 * It posts the request itself and uses only the SDK's stream decoder and error classes
 * (`openai/streaming`, `openai/error`): the SDK's client module loads every API resource,
 * about 100 ms and several MiB at every start, for one endpoint.
 *
 * @module
 */
import { APIError } from "openai/error";
import { Stream } from "openai/streaming";
import {
  ChatError,
  type ChatModel,
  type ChatOptions,
  type ChatReply,
  type ChatRequest,
} from "./chat_model.ts";
import { normalizeErrorBody } from "./error_body.ts";
import { classifyChatFailure, retryDelayMs, streamFailure } from "./errors.ts";
import { ReplyAssembler } from "./stream.ts";
import { type OutputLimitField, toWireRequest, type WireOptions } from "./wire.ts";
import { type Delay, delay } from "../core/mod.ts";

/** Where and how to reach the model. */
export interface ChatClientOptions {
  baseURL: string;
  apiKey: string;
  model: string;
  /** Retries after 429, 5xx, dropped connections and stalled streams (default 4). */
  maxRetries?: number;
  /** Time allowed until response headers arrive (default 600 000 ms). */
  requestTimeoutMs?: number;
  /** Time allowed between two streamed chunks before the stream counts as stalled (default 300 000 ms). */
  idleTimeoutMs?: number;
  /** The request parameter for the output limit; by default chosen from the model name. */
  outputLimitField?: OutputLimitField;
  /** The wait before a retry (default {@linkcode delay}); tests pass one that does not sleep. */
  delay?: Delay;
  /**
   * Marks the system prompt and the last message as prompt-cache breakpoints
   * (`cache_control: {type: "ephemeral"}` on a text content part), for routes that cache
   * only with explicit markers, such as Anthropic models through OpenRouter. Default false.
   */
  cacheControl?: boolean;
}

/** The wait before the one retry of a connection that failed. */
const UNREACHABLE_RETRY_MS = 500;

/**
 * Creates a ChatModel for an OpenAI-compatible endpoint.
 * Contract: every failure is a `ChatError`; the API key appears in no message.
 */
export function createChatClient(options: ChatClientOptions): ChatModel {
  // Retries happen in the loop below (not in a client library) because it must also retry
  // streams that drop or stall after the headers, report each retry to the terminal and stop
  // waiting at once on Ctrl+C.
  const maxRetries = options.maxRetries ?? 4;
  const wait = options.delay ?? delay;
  const idleTimeoutMs = options.idleTimeoutMs ?? 300_000;
  const context = { baseURL: options.baseURL, model: options.model };
  const stream = {
    endpoint: {
      url: `${options.baseURL.replace(/\/+$/, "")}/chat/completions`,
      apiKey: options.apiKey,
      timeoutMs: options.requestTimeoutMs ?? 600_000,
    },
    model: options.model,
    idleTimeoutMs,
    wire: { field: options.outputLimitField, cacheControl: options.cacheControl === true },
  };

  async function complete(request: ChatRequest, chatOptions: ChatOptions = {}): Promise<ChatReply> {
    const { signal } = chatOptions;
    for (let attempt = 1;; attempt++) {
      const reply = new ReplyAssembler(chatOptions);
      try {
        return await streamOnce(stream, request, chatOptions, reply);
      } catch (error) {
        const failure = error instanceof ChatError
          ? error
          : classifyChatFailure(error, { ...context, aborted: signal?.aborted ?? false });
        failure.partialOutput = reply.streamed;
        const retryable = failure.kind === "rate_limited" || failure.kind === "server" ||
          failure.kind === "unreachable";
        // A server that refuses connections is down or misnamed: one quick retry, not a backoff.
        const unreachable = failure.kind === "unreachable";
        if (!retryable || attempt > (unreachable ? Math.min(1, maxRetries) : maxRetries)) {
          throw failure;
        }
        if (reply.streamed) chatOptions.onDiscard?.();
        const delayMs = unreachable
          ? Math.min(UNREACHABLE_RETRY_MS, retryDelayMs(error, attempt))
          : retryDelayMs(error, attempt);
        chatOptions.onRetry?.({ attempt, delayMs, reason: failure.message });
        await wait(delayMs, signal).catch(() => {
          throw new ChatError("aborted", "Interrupted");
        });
      }
    }
  }
  return { complete };
}

/** What one streamed request needs besides the request itself. */
interface StreamSetup {
  endpoint: { url: string; apiKey: string; timeoutMs: number };
  model: string;
  idleTimeoutMs: number;
  wire: WireOptions;
}

/**
 * POSTs one streaming request and returns the response once its headers arrived.
 * Contract: a non-2xx answer throws the SDK's `APIError` for its status, with the provider's
 * message from any error body shape (Gemini's arrays, vLLM's top-level errors); no answer
 * within `timeoutMs` aborts the request.
 */
async function post(
  endpoint: StreamSetup["endpoint"],
  body: unknown,
  controller: AbortController,
): Promise<Response> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, endpoint.timeoutMs);
  let response: Response;
  try {
    response = await fetch(endpoint.url, {
      method: "POST",
      headers: {
        "authorization": `Bearer ${endpoint.apiKey}`,
        "content-type": "application/json",
        "accept": "text/event-stream, application/json",
      },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
  } catch (error) {
    if (!timedOut) throw error;
    throw new Error(`no response within ${endpoint.timeoutMs / 1000} s (timed out)`, {
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
  if (response.ok) return response;
  const text = normalizeErrorBody(await response.text().catch(() => ""));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const error = typeof json === "object" && json !== null
    ? json as Record<string, unknown>
    : undefined;
  throw APIError.generate(response.status, error, error ? undefined : text, response.headers);
}

async function streamOnce(
  setup: StreamSetup,
  request: ChatRequest,
  options: ChatOptions,
  reply: ReplyAssembler,
): Promise<ChatReply> {
  const { model, idleTimeoutMs } = setup;
  const controller = new AbortController();
  const abort = () => controller.abort();
  options.signal?.addEventListener("abort", abort, { once: true });
  let stalled = false;
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  const armWatchdog = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      stalled = true;
      controller.abort();
    }, idleTimeoutMs);
  };
  try {
    options.signal?.throwIfAborted();
    armWatchdog();
    const response = await post(
      setup.endpoint,
      toWireRequest(model, request, setup.wire),
      controller,
    );
    const stream = Stream.fromSSEResponse<unknown>(response, controller);
    try {
      for await (const chunk of stream) {
        armWatchdog();
        reply.add(chunk as unknown);
      }
    } catch (error) {
      // The server was reached: a failure now is an error it sent in the stream, or a
      // dropped stream, never an unreachable server.
      if (error instanceof ChatError || options.signal?.aborted || stalled) throw error;
      throw streamFailure(error);
    }
    if (options.signal?.aborted) throw new ChatError("aborted", "Interrupted");
    if (stalled) {
      throw new ChatError("server", `The model stopped sending for ${idleTimeoutMs / 1000} s`);
    }
    return reply.build(model);
  } catch (error) {
    if (options.signal?.aborted) throw new ChatError("aborted", "Interrupted");
    if (stalled) {
      throw new ChatError("server", `The model stopped sending for ${idleTimeoutMs / 1000} s`);
    }
    throw error;
  } finally {
    clearTimeout(watchdog);
    options.signal?.removeEventListener("abort", abort);
  }
}
