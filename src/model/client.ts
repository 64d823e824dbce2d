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
import { type ProfileOverrides, type ProviderProfile, resolveProfile } from "./profile.ts";
import { ReplyAssembler } from "./stream.ts";
import { toWireRequest } from "./wire.ts";
import { type Delay, delay, parseJsonObject } from "../core/mod.ts";

/** Where and how to reach the model. */
export interface ChatClientOptions {
  baseURL: string;
  apiKey: string;
  model: string;
  /**
   * How often a transient failure is retried (default 4): 429, 5xx, dropped, stalled or
   * malformed streams. A server that cannot be reached is retried once at most.
   */
  maxRetries?: number;
  /** Time allowed until response headers arrive (default 600 000 ms). */
  requestTimeoutMs?: number;
  /** Time allowed between two streamed chunks before the stream counts as stalled (default 300 000 ms). */
  idleTimeoutMs?: number;
  /** Fields of the provider profile that replace the ones detected from `baseURL` and `model`. */
  compat?: ProfileOverrides;
  /** The wait before a retry (default {@linkcode delay}); tests pass one that does not sleep. */
  delay?: Delay;
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
    profile: resolveProfile(options.baseURL, options.model, options.compat),
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
  profile: ProviderProfile;
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
  const parsed = parseJsonObject(text);
  const error = parsed.ok ? parsed.value : undefined;
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
  /** Why the request was cut short from this side (Ctrl+C, or the stall watchdog), if it was. */
  const stopped = (): ChatError | undefined => {
    if (options.signal?.aborted) return new ChatError("aborted", "Interrupted");
    if (!stalled) return undefined;
    return new ChatError("server", `The model stopped sending for ${idleTimeoutMs / 1000} s`);
  };
  try {
    options.signal?.throwIfAborted();
    armWatchdog();
    const body = toWireRequest(model, request, setup.profile);
    const response = await post(setup.endpoint, body, controller);
    const stream = Stream.fromSSEResponse<unknown>(response, controller);
    try {
      for await (const chunk of stream) {
        armWatchdog();
        reply.add(chunk as unknown);
      }
    } catch (error) {
      // The server was reached: a failure now is an error it sent in the stream, or a
      // dropped stream, never an unreachable server.
      if (error instanceof ChatError || stopped()) throw error;
      throw streamFailure(error);
    }
    // An aborted stream ends quietly, without an error.
    const stop = stopped();
    if (stop) throw stop;
    return reply.build(model);
  } catch (error) {
    throw stopped() ?? error;
  } finally {
    clearTimeout(watchdog);
    options.signal?.removeEventListener("abort", abort);
  }
}
