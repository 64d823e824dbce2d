/**
 * The chat client: powercode's only door to `npm:openai`. Streams replies from
 * any OpenAI-compatible chat-completions endpoint and retries transient failures.
 *
 * @module
 */
import type OpenAI from "openai";
import { ChatError } from "./chat_model.ts";
import type { ChatModel, ChatOptions, ChatReply, ChatRequest } from "./chat_model.ts";
import { normalizeErrorBody } from "./chat_error_body.ts";
import { classifyChatFailure, retryDelayMs, streamFailure } from "./chat_errors.ts";
import { ReplyAssembler } from "./chat_stream.ts";
import { type OutputLimitField, toWireRequest, type WireOptions } from "./chat_wire.ts";
import { type Delay, delay } from "./delay.ts";

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
  // The SDK is loaded with the first request, not at startup: the prompt comes up sooner.
  const client = lazy(async () => {
    const { default: OpenAI } = await import("openai");
    return new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey,
      // The SDK's own retries are off: the loop below retries instead, because it must also
      // retry streams that drop or stall after the headers, report each retry to the terminal
      // and stop waiting at once on Ctrl+C.
      maxRetries: 0,
      timeout: options.requestTimeoutMs ?? 600_000,
      fetch: readableErrors,
    });
  });
  const maxRetries = options.maxRetries ?? 4;
  const wait = options.delay ?? delay;
  const idleTimeoutMs = options.idleTimeoutMs ?? 300_000;
  const context = { baseURL: options.baseURL, model: options.model };
  const stream = {
    client,
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
  client: () => Promise<OpenAI>;
  model: string;
  idleTimeoutMs: number;
  wire: WireOptions;
}

/** A value made once, on first use. */
function lazy<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => made ??= make();
}

/**
 * fetch for the SDK that rewrites error bodies of other shapes into OpenAI's, so the
 * SDK's error carries the provider's message (Gemini's arrays, vLLM's top-level errors).
 */
async function readableErrors(input: string | URL | Request, init?: RequestInit) {
  const response = await fetch(input, init);
  if (response.ok) return response;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.delete("content-encoding");
  return new Response(normalizeErrorBody(await response.text()), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

async function streamOnce(
  setup: StreamSetup,
  request: ChatRequest,
  options: ChatOptions,
  reply: ReplyAssembler,
): Promise<ChatReply> {
  const client = await setup.client();
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
    const stream = await client.chat.completions.create(
      toWireRequest(model, request, setup.wire),
      { signal: controller.signal },
    );
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
