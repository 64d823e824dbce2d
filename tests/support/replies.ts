/**
 * The contract of a fake-server {@link Handler}: the recorded request it is given, and the
 * replies it can script (text, tool calls, HTTP errors, dropped connections and hangs).
 *
 * @module
 */
import type { ChatRequest } from "./chat_request.ts";

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
  /** Prompt tokens as counted by `countPromptTokens`; 0 without a valid body. */
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

/** Decides the reply to a valid chat request; `index` counts handler calls from 0. */
export type Handler = (request: HandledRequest, index: number) => Reply | Promise<Reply>;

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

/**
 * Bytes recorded from a real provider, sent as they are: an SSE body in its events, or
 * an error body (see `provider_fixtures.ts`).
 */
export interface RawReply extends ReplyTiming {
  readonly type: "raw";
  /** HTTP status. */
  readonly status: number;
  /** `content-type` header; none when empty. */
  readonly contentType: string;
  /** Other response headers, e.g. `{"retry-after": "1"}`. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The body, in the parts it is sent in (one SSE event each, or one whole JSON body); bytes
   * for parts cut inside a character.
   */
  readonly parts: readonly (string | Uint8Array)[];
}

/** What a {@link Handler} answers to one valid chat request. */
export type Reply = TextReply | ToolCallsReply | ErrorReply | DropReply | HangReply | RawReply;

/**
 * Check a scripted reply before it is sent.
 *
 * Contract: throws a TypeError for a `tool_calls` reply without calls.
 */
export function checkReply(reply: Reply): Reply {
  if (reply.type === "tool_calls" && reply.calls.length === 0) {
    throw new TypeError("Cannot send a tool_calls reply: it has no calls");
  }
  return reply;
}

/** The `error` object of an OpenAI-style error response body. */
export interface OpenAIErrorBody {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

/** The error body of a status, with `type` and `code` defaulted as {@link ErrorReply} says. */
export function serverError(
  status: number,
  message: string,
  reply?: ErrorReply,
): OpenAIErrorBody {
  const type = reply?.errorType ??
    (status === 429 ? "requests" : status >= 500 ? "server_error" : "invalid_request_error");
  return { message, type, param: null, code: reply?.code ?? null };
}
