/**
 * The chat client: powercode's only door to `npm:openai`. Streams replies from
 * any OpenAI-compatible chat-completions endpoint and retries transient failures.
 *
 * It posts the request and reads the event stream itself (bounded, see limits.ts) and uses
 * only the SDK's error classes (`openai/error`): the SDK's client module loads every API
 * resource, about 100 ms and several MiB at every start, for one endpoint.
 *
 * @module
 */
import {
  ChatError,
  type ChatModel,
  type ChatOptions,
  type ChatReply,
  type ChatRequest,
} from "./chat_model.ts";
import { classifyChatFailure, classifyStreamError, retryDelayMs, streamFailure } from "./errors.ts";
import { type Endpoint, post } from "./http.ts";
import { REPLY_LIMITS, type ReplyLimits } from "./limits.ts";
import { type CompatOverrides, type ProviderCompat, resolveCompat } from "./compat.ts";
import { isWholeBody, readWholeBody } from "./reply_body.ts";
import { readSseEvents, type SseEvent } from "./sse.ts";
import { ReplyAssembler } from "./stream.ts";
import { toWireRequest } from "./wire.ts";
import { wireSegments } from "./wire_segments.ts";
import { type Delay, delay, isObject, type Watchdog, watchdog } from "../core/mod.ts";

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
  /** Fields of the provider compat settings that replace the ones detected from `baseURL` and `model`. */
  compat?: CompatOverrides;
  /** The wait before a retry (default {@linkcode delay}); tests pass one that does not sleep. */
  delay?: Delay;
  /** Caps replacing those of {@linkcode REPLY_LIMITS}; tests pass a short error-body timer. */
  limits?: Partial<ReplyLimits>;
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
    compat: resolveCompat(options.baseURL, options.model, options.compat),
    limits: { ...REPLY_LIMITS, ...options.limits },
  };

  async function complete(request: ChatRequest, chatOptions: ChatOptions = {}): Promise<ChatReply> {
    const { signal } = chatOptions;
    for (let attempt = 1;; attempt++) {
      const reply = new ReplyAssembler(chatOptions, stream.limits);
      const progress: Progress = { sent: false, answered: false };
      try {
        return await streamOnce(stream, request, chatOptions, { reply, progress });
      } catch (error) {
        const failure = error instanceof ChatError
          ? error
          : classifyChatFailure(error, { ...context, aborted: signal?.aborted ?? false });
        failure.partialOutput = reply.streamed;
        // The provider took the request and served part of it: a stream that began, or one
        // interrupted while its headers were still on the way.
        if (progress.answered || (progress.sent && failure.kind === "aborted")) {
          chatOptions.onServed?.(reply.served());
        }
        const retryable = failure.kind === "rate_limited" || failure.kind === "server" ||
          failure.kind === "unreachable";
        // A server that refuses connections is down or misnamed: one quick retry, not a backoff.
        const unreachable = failure.kind === "unreachable";
        if (!retryable || attempt > (unreachable ? Math.min(1, maxRetries) : maxRetries)) {
          throw failure;
        }
        if (reply.streamed) chatOptions.onDiscard?.();
        const refusal = chatOptions.admitRetry?.();
        if (refusal !== undefined) throw new ChatError("budget", refusal);
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

/** How far one attempt got: its body posted, and a 2xx answer's headers received. */
interface Progress {
  sent: boolean;
  answered: boolean;
}

/** What one streamed request needs besides the request itself. */
interface StreamSetup {
  endpoint: Endpoint;
  model: string;
  idleTimeoutMs: number;
  compat: ProviderCompat;
  limits: ReplyLimits;
}

async function streamOnce(
  setup: StreamSetup,
  request: ChatRequest,
  options: ChatOptions,
  attempt: { reply: ReplyAssembler; progress: Progress },
): Promise<ChatReply> {
  const { reply, progress } = attempt;
  const { model, idleTimeoutMs } = setup;
  const controller = new AbortController();
  const abort = () => controller.abort();
  options.signal?.addEventListener("abort", abort, { once: true });
  let stalled = false;
  let stall: Watchdog | undefined;
  const armWatchdog = () => {
    stall ??= watchdog(idleTimeoutMs, () => {
      stalled = true;
      controller.abort();
    });
    stall.touch();
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
    const wire = toWireRequest(model, request, setup.compat);
    const body = serialize(wire);
    const { limits } = setup;
    options.onRequest?.(wireSegments(wire));
    progress.sent = true;
    const response = await post(setup.endpoint, body, { controller, limits });
    progress.answered = true;
    try {
      if (isWholeBody(response)) {
        await readWholeBody(response, reply, { limits, timeoutMs: idleTimeoutMs });
      } else {
        for await (
          const event of readSseEvents(response.body ?? emptyBody(), limits.sseLineChars)
        ) {
          armWatchdog();
          if (!readEvent(event, reply)) break;
        }
      }
    } catch (error) {
      // The server was reached: a failure now is an error it sent in the stream, or a
      // dropped stream, never an unreachable server.
      if (error instanceof ChatError || stopped()) throw error;
      throw streamFailure(error);
    }
    // An aborted stream may end quietly, without an error.
    const stop = stopped();
    if (stop) throw stop;
    return reply.build(model);
  } catch (error) {
    throw stopped() ?? error;
  } finally {
    stall?.stop();
    options.signal?.removeEventListener("abort", abort);
  }
}

/**
 * Reads one event into `reply`; false once the stream said `[DONE]`.
 * Contract: an error the provider sent (an `error:` field, an `error` event, an `error`
 * object in a chunk) throws it classified; data that is not JSON throws a SyntaxError.
 */
function readEvent(event: SseEvent, reply: ReplyAssembler): boolean {
  if (event.error !== undefined) throw classifyStreamError(parseLenient(event.error));
  if (event.data === "[DONE]") return false;
  if (event.data === "") return true;
  const chunk: unknown = JSON.parse(event.data);
  const error = isObject(chunk) ? chunk.error : undefined;
  if (event.event === "error") throw classifyStreamError(error ?? chunk);
  if (error !== undefined && error !== null && error !== false) throw classifyStreamError(error);
  reply.add(chunk);
  return true;
}

/** JSON when it parses, else the text itself (an error may be sent as either). */
function parseLenient(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The request body as JSON text; a value that cannot be serialized ends the task, one line. */
function serialize(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ChatError("bad_request", `Cannot send the request: ${reason}`);
  }
}

function emptyBody(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.close() });
}
