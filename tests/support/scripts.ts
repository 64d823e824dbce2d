/**
 * Scripts of model turns, one vocabulary for the fake server and the in-process
 * `ScriptedModel`: the {@link ScriptStep} type, reply builders and handler combinators, so a
 * test reads as a script:
 * `handler: answerSummaries(sequence([toolCall("read_file", {path: "a"}), text("done")]))`.
 *
 * @module
 */
import { ChatError, type ReplyUsage } from "../../src/model/chat_model.ts";
import type { ToolCall } from "../../src/core/messages.ts";
import type {
  ChatMessage,
  ChatRequest,
  DropReply,
  ErrorReply,
  Handler,
  HangReply,
  RawReply,
  RecordedRequest,
  Reply,
  ReplyTiming,
  TextReply,
  ToolCallSpec,
  ToolCallsReply,
} from "./fake_server.ts";

/** A recorded or handled request; one without a valid body reads as having no messages. */
export type RequestLike = Pick<RecordedRequest, "body">;

/** A model turn written the short way: its text, its tool calls and the counts it reports. */
export interface Turn {
  text?: string;
  toolCalls?: ToolCall[];
  /** `usage.total_tokens` as the in-process model reports it. */
  totalTokens?: number;
  /** Token counts as the in-process model reports them. */
  usage?: ReplyUsage;
}

/**
 * One step of a script, taken by the fake server's {@link sequence} and by the in-process
 * `ScriptedModel` alike: a turn (or just its text), a reply on the wire, a handler deciding
 * from the request, or the `ChatError` the chat client would throw.
 *
 * Limits: the fake server counts tokens itself, so it ignores a turn's `totalTokens` and
 * `usage`, and it cannot send a `ChatError` (what a client makes of a reply); the in-process
 * model plays text and tool-call replies only, since the others need HTTP.
 */
export type ScriptStep = string | Turn | ChatError | Reply | Handler;

/** The step as a reply or handler of the fake server; see {@link ScriptStep} for the limits. */
export function onTheWire(step: ScriptStep): Reply | Handler {
  if (typeof step === "string") return text(step);
  if (step instanceof ChatError) {
    throw new TypeError(
      `Cannot send a ChatError from the fake server: script the HTTP reply that causes "${step.kind}"`,
    );
  }
  if (typeof step === "function" || "type" in step) return step;
  const { text: content = "", toolCalls: calls = [] } = step;
  if (calls.length === 0) return text(content);
  const specs = calls.map((call) => ({ id: call.id, name: call.name, args: call.arguments }));
  return toolCalls(specs, content === "" ? {} : { content });
}

/** Options of {@link text}. */
export interface TextOptions extends ReplyTiming {
  /** Characters per streamed piece. */
  chunkSize?: number;
  /** Finish reason; default `"stop"`. */
  finishReason?: "stop" | "length";
}

/** A tool call to build: `args` objects are sent as JSON, strings as is. */
export interface ToolCallInput {
  /** Function name. */
  name: string;
  /** Arguments: an object to serialize, or raw JSON text (possibly invalid on purpose). */
  args: unknown;
  /** Call id; by default the server assigns `call_<n>`. */
  id?: string;
}

/** Options of {@link toolCalls} and {@link toolCall}. */
export interface ToolCallsOptions extends ReplyTiming {
  /** Text sent before the calls. */
  content?: string;
}

/** A text answer. */
export function text(content: string, options: TextOptions = {}): TextReply {
  return { type: "text", content, ...options };
}

/** An answer with several tool calls, in order. */
export function toolCalls(
  calls: readonly ToolCallInput[],
  options: ToolCallsOptions = {},
): ToolCallsReply {
  const specs = calls.map((call): ToolCallSpec => {
    const args = typeof call.args === "string" ? call.args : JSON.stringify(call.args);
    return call.id === undefined
      ? { name: call.name, arguments: args }
      : { name: call.name, arguments: args, id: call.id };
  });
  return { type: "tool_calls", calls: specs, ...options };
}

/** An answer with one tool call; `args` objects are sent as JSON, strings as is. */
export function toolCall(
  name: string,
  args: unknown,
  options: ToolCallsOptions = {},
): ToolCallsReply {
  return toolCalls([{ name, args }], options);
}

/** An HTTP error reply, e.g. `httpError(503, "overloaded")`. */
export function httpError(
  status: number,
  message: string,
  options: Omit<ErrorReply, "type" | "status" | "message"> = {},
): ErrorReply {
  return { type: "error", status, message, ...options };
}

/** A 429 rate-limit error carrying a `retry-after` header in seconds. */
export function rateLimited(retryAfterSeconds: number): ErrorReply {
  return httpError(429, "Rate limit reached for requests", {
    code: "rate_limit_exceeded",
    headers: { "retry-after": String(retryAfterSeconds) },
  });
}

/** A reply whose connection drops after `afterChunks` SSE events of `reply`. */
export function drop(reply: TextReply | ToolCallsReply, afterChunks: number): DropReply {
  return { type: "drop", reply, afterChunks };
}

/** A reply that never comes (until the server closes). */
export function hang(): HangReply {
  return { type: "hang" };
}

/**
 * A handler answering the steps in order, one per request.
 *
 * Contract: a request beyond the script gets a 500 whose message names the request
 * number and the script length, and is recorded as a rejection, so the overrun is loud.
 */
export function sequence(steps: readonly ScriptStep[]): Handler {
  let next = 0;
  return (request, index) => {
    const position = next++;
    const step = steps[position];
    if (step === undefined) {
      return httpError(
        500,
        `Fake server script exhausted: request ${
          position + 1
        } has no reply; the script has ${steps.length} steps. Last user text: "${
          lastUserText(request).slice(0, 200)
        }"`,
        { code: "script_exhausted" },
      );
    }
    const reply = onTheWire(step);
    return typeof reply === "function" ? reply(request, index) : reply;
  };
}

/** A handler answering `reply` to the first `times` requests, then delegating to `then`. */
export function failTimes(times: number, reply: Reply, then: Handler): Handler {
  let seen = 0;
  return (request, index) => seen++ < times ? reply : then(request, index - times);
}

/**
 * A handler answering summarization requests with {@link summarizeFacts} and passing
 * every other request to `inner`.
 */
export function answerSummaries(inner: Handler): Handler {
  return (request, index) =>
    isSummaryRequest(request) ? text(summarizeFacts(request)) : inner(request, index);
}

function messagesOf(request: RequestLike): readonly ChatMessage[] {
  return request.body?.messages ?? [];
}

/** The last message of a request. */
export function lastMessage(request: RequestLike): ChatMessage | undefined {
  return messagesOf(request).at(-1);
}

/** The text of the last user message, or `""` when there is none. */
export function lastUserText(request: RequestLike): string {
  const user = messagesOf(request).findLast((message) => message.role === "user");
  return user?.content ?? "";
}

/** The system messages' text, joined by newlines. */
export function systemText(request: RequestLike): string {
  return messagesOf(request).filter((message) => message.role === "system")
    .map((message) => message.content).join("\n");
}

/**
 * Whether a request asks for a summary: its last message is a user message saying not to
 * continue the conversation (the instruction appended to the conversation itself); or it has
 * no `tools` key, and its system text speaks of summarizing or of not continuing the
 * conversation, or its last user message mentions "summary" (case-insensitive).
 */
export function isSummaryRequest(request: RequestLike): boolean {
  const body: ChatRequest | undefined = request.body;
  const last = lastMessage(request);
  if (last?.role === "user" && /do not continue the conversation/i.test(last.content)) return true;
  if (body === undefined || body.tools !== undefined) return false;
  const system = systemText(request).toLowerCase();
  return system.includes("summar") || system.includes("not continue the conversation") ||
    lastUserText(request).toLowerCase().includes("summary");
}

/** Every distinct `FACT-<digits>` token in the request's messages, in order of first use. */
export function factsIn(request: RequestLike): string[] {
  const facts = new Set<string>();
  for (const message of messagesOf(request)) {
    const texts = [message.content ?? ""];
    if (message.role === "assistant") {
      texts.push(...(message.tool_calls ?? []).map((call) => call.function.arguments));
    }
    for (const found of texts.join("\n").matchAll(/FACT-\d+/g)) facts.add(found[0]);
  }
  return [...facts];
}

/**
 * A deterministic summary carrying forward every `FACT-<digits>` token of the request,
 * under the six headings of the compaction prompt.
 *
 * Contract: the same request always yields the same text; a fact is lost only if the
 * request did not contain it, so compaction tests measure the pipeline, not a model.
 */
export function summarizeFacts(request: RequestLike): string {
  const facts = factsIn(request);
  return [
    "## User Goal",
    "Continue the task described in the conversation.",
    "## Constraints and Key Decisions",
    "(none recorded)",
    "## Completed",
    facts.length > 0 ? `Facts carried forward: ${facts.join(", ")}` : "No facts recorded.",
    "## Current Issues",
    "(none)",
    "## Files Read or Modified",
    "(see file lists)",
    "## Next Steps",
    "Continue from the last step.",
  ].join("\n");
}

/**
 * A 200 SSE reply of `chunks` as given (objects JSON-encoded, strings sent as they are),
 * then `[DONE]`, for streams no scripted reply can express.
 */
export function sseReply(chunks: readonly (object | string)[]): RawReply {
  const data = (chunk: object | string) =>
    typeof chunk === "string" ? chunk : JSON.stringify(chunk);
  return {
    type: "raw",
    status: 200,
    contentType: "text/event-stream",
    parts: [...chunks.map((chunk) => `data: ${data(chunk)}\n\n`), "data: [DONE]\n\n"],
  };
}

/** The messages of a request without the system prompt. */
export function withoutSystem(messages: readonly ChatMessage[] | undefined): ChatMessage[] {
  return (messages ?? []).filter((message) => message.role !== "system");
}
