/**
 * Rendering fake-server answers as the real API does: one `chat.completion` JSON body, or
 * `chat.completion.chunk` SSE events ending with `[DONE]`, sent at a scripted pace and cut
 * where a drop is scripted.
 *
 * @module
 */
import type { WireToolCall } from "./chat_request.ts";
import type { TextReply, ToolCallsReply } from "./replies.ts";
import { countTextTokens } from "./tokens.ts";

/** A text or tool-calls reply with its call ids fixed, ready to render. */
export interface Answer {
  content: string | null;
  calls: { id: string; name: string; arguments: string }[];
  finishReason: "stop" | "length" | "tool_calls";
}

/** The fields every completion body and chunk repeats. */
export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
  "system_fingerprint": string;
}

/** Token usage as the API reports it. */
export interface Usage {
  "prompt_tokens": number;
  "completion_tokens": number;
  "total_tokens": number;
  /** Present when the server reports its prompt cache. */
  "prompt_tokens_details"?: { "cached_tokens": number };
}

/** The answer of `reply`; calls without an id get `nextId()`, in order. */
export function toAnswer(reply: TextReply | ToolCallsReply, nextId: () => string): Answer {
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

/**
 * Usage of `answer` after a prompt of `promptTokens`, counting names and arguments of calls;
 * with `cachedTokens`, the prompt's cached part as OpenAI reports it.
 */
export function answerUsage(answer: Answer, promptTokens: number, cachedTokens?: number): Usage {
  const completionTokens = answer.calls.reduce(
    (sum, call) => sum + countTextTokens(call.name) + countTextTokens(call.arguments),
    countTextTokens(answer.content ?? ""),
  );
  return {
    "prompt_tokens": promptTokens,
    "completion_tokens": completionTokens,
    "total_tokens": promptTokens + completionTokens,
    ...(cachedTokens === undefined
      ? {}
      : { "prompt_tokens_details": { "cached_tokens": cachedTokens } }),
  };
}

/** How {@link answerResponse} sends an answer. */
export interface AnswerOptions {
  /** Fields repeated in the body or every chunk. */
  meta: CompletionMeta;
  /** Usage to report; `undefined` for a server that never reports usage. */
  usage: Usage | undefined;
  /** Send SSE events instead of one JSON body. */
  stream: boolean;
  /** End a stream with a usage chunk (when `usage` is set). */
  includeUsage: boolean;
  /** Characters per streamed content piece; by default up to 8 even pieces. */
  chunkSize: number | undefined;
  /** Wait this long before each streamed event after the first. */
  chunkDelayMs: number;
  /** Cut the connection after this many SSE events (or half the JSON); never if `undefined`. */
  dropAfter: number | undefined;
  /** Server shutdown: ends a slow body early. */
  signal: AbortSignal;
  /** Called when the client cancels the body. */
  onCancel: () => void;
}

/**
 * The HTTP response carrying `answer`, as one JSON body or as an SSE stream.
 *
 * Contract: a dropped JSON answer sends the first half of its body, then resets.
 */
export function answerResponse(answer: Answer, options: AnswerOptions): Response {
  const { meta, usage, dropAfter, signal, onCancel } = options;
  if (!options.stream) {
    const json = JSON.stringify(completionJson(answer, meta, usage));
    const headers = { "content-type": "application/json" };
    if (dropAfter === undefined) return new Response(json, { headers });
    const half = json.slice(0, Math.floor(json.length / 2));
    return new Response(scriptedBody([half], { dropAfter: 1, signal, onCancel }), { headers });
  }
  const streamUsage = options.includeUsage ? usage : undefined;
  const events = sseEvents(answer, meta, streamUsage, options.chunkSize);
  const parts = events.map((event) => `data: ${event}\n\n`);
  const stream = scriptedBody(parts, {
    chunkDelayMs: options.chunkDelayMs,
    dropAfter,
    signal,
    onCancel,
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  });
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

/** How {@link scriptedBody} sends its parts. */
export interface BodyOptions {
  /** Wait this long before each part after the first. */
  chunkDelayMs?: number;
  /** Cut the connection after this many parts; never if `undefined`. */
  dropAfter: number | undefined;
  /** Server shutdown: ends a slow body early. */
  signal: AbortSignal;
  /** Called when the client cancels the body. */
  onCancel: () => void;
}

/**
 * A body sending `parts` one by one, cutting the connection after `dropAfter` parts and
 * ending early when the server closes.
 */
export function scriptedBody(
  parts: readonly (string | Uint8Array)[],
  options: BodyOptions,
): ReadableStream<Uint8Array> {
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
      controller.enqueue(typeof part === "string" ? encoder.encode(part) : part);
      sent++;
    },
    cancel() {
      cancelled.abort();
      options.onCancel();
    },
  });
}

/** Resolves after `ms`, or early (returning false) when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
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
