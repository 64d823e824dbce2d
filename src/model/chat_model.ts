/**
 * The model interface the agent and the compactor call. `client.ts` implements it
 * over any OpenAI-compatible endpoint.
 *
 * @module
 */
import type { AssistantMessage, Message, ToolDefinition } from "../core/mod.ts";
import type { ReasoningEffort } from "./reasoning_effort.ts";

/** One chat-completions request in powercode's terms. */
export interface ChatRequest {
  system: string;
  messages: readonly Message[];
  /** Omitted from the wire request when empty or absent. */
  tools?: readonly ToolDefinition[];
  /** Sent as the output limit when set. */
  maxOutputTokens?: number;
  /** Sent where the provider profile says (`reasoning_effort` by default) when set. */
  reasoningEffort?: ReasoningEffort;
}

/** The tokens one reply cost, as the provider counted them. */
export interface ReplyUsage {
  promptTokens: number;
  /** Output tokens, reasoning included (some providers count it beside `completion_tokens`). */
  completionTokens: number;
  /** Prompt tokens the provider served from its cache; 0 when it reports none. */
  cachedTokens: number;
}

/** The model's reply and the tokens the server counted for the whole exchange. */
export interface ChatReply {
  message: AssistantMessage;
  /** `usage.total_tokens`, undefined when the server sent none. */
  totalTokens: number | undefined;
  /** Prompt, completion and cached tokens, when the server reported prompt tokens. */
  usage?: ReplyUsage;
  /** The provider's `finish_reason` (`stop`, `tool_calls`, `length`, `content_filter`, ...). */
  finishReason?: string;
}

/**
 * What the provider served of an attempt that failed after it took the request (a dropped or
 * stalled stream, an error sent inside it, an interruption), so a meter can count it.
 */
export interface ServedAttempt {
  /** The usage the stream carried before it ended, when it carried one. */
  usage?: ReplyUsage;
  /** The text, reasoning and tool-call arguments received before it ended. */
  received: string;
}

/**
 * One part of a request's prefix as it went on the wire: the system prompt, a tool definition
 * or a message, in that order (see `wireSegments`).
 */
export interface WireSegment {
  /** What it is: `system prompt`, `tool read_file`, `message 3 (user)`. */
  name: string;
  /** Its JSON text as sent (a cache mark taken off: a provider caches the part and the string alike). */
  text: string;
}

/** Per-call options. */
export interface ChatOptions {
  signal?: AbortSignal;
  /** Called with each piece of streamed answer text. */
  onText?: (text: string) => void;
  /** Called with each piece of streamed reasoning (thinking) text. */
  onReasoning?: (text: string) => void;
  /**
   * Called before a retry when the failed attempt already streamed text or reasoning:
   * that output is abandoned and the retry streams its own.
   */
  onDiscard?: () => void;
  /** Called before waiting to retry a transient failure. */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
  /**
   * Called before each retry is sent (after `onServed` counted the failed attempt): a line
   * refusing it (the budget), or undefined to send it. A refusal ends the request with
   * ChatError "budget" carrying that line; nothing more is sent.
   */
  admitRetry?: () => string | undefined;
  /**
   * Called once for each attempt that failed after the provider took the request: a dropped,
   * stalled or interrupted stream, an error sent inside it, or an interruption before the
   * headers came. Not called for a request refused with an error status (429, 5xx, 4xx) or
   * one that never reached the server: the provider served nothing of those.
   */
  onServed?: (served: ServedAttempt) => void;
  /** Called with the prefix segments of each attempt as it is sent (retries included). */
  onRequest?: (segments: readonly WireSegment[]) => void;
}

/** Something that answers chat requests. */
export interface ChatModel {
  /**
   * Sends one request and returns the complete reply.
   * Contract: failures throw `ChatError`; transient ones were already retried.
   */
  complete(request: ChatRequest, options?: ChatOptions): Promise<ChatReply>;
}

/**
 * What to tell the user about a reply's finish reason: cut at the output limit (the
 * configured one, or the cap a budget left), or stopped by the provider's content filter;
 * undefined for a normal finish.
 */
export function finishWarning(
  finishReason: string | undefined,
  capped: "config" | "budget" = "config",
): string | undefined {
  if (finishReason === "length" && capped === "budget") {
    return `The reply was cut at the output cap the budget left (finish_reason "length"); raise --max-tokens or --max-cost (or "budget" in provider.json) and ask to continue`;
  }
  if (finishReason === "length") {
    return `The reply was cut at the output limit (finish_reason "length"); raise "maxOutputTokens" in provider.json or ask to continue`;
  }
  if (finishReason === "content_filter") {
    return `The provider's content filter stopped the reply (finish_reason "content_filter")`;
  }
  return undefined;
}

/** Why a chat request failed, as far as the caller needs to act on it. */
export type ChatErrorKind =
  | "context_overflow"
  | "auth"
  | "not_found"
  | "bad_request"
  | "rate_limited"
  | "server"
  | "unreachable"
  | "aborted"
  /** The reply passed one of powercode's caps (see limits.ts); not retried. */
  | "limit"
  /** The budget refused the request (or its retry) before it was sent. */
  | "budget";

/** A failed chat request; `message` is one line for the person at the terminal. */
export class ChatError extends Error {
  /** What went wrong, for the caller's decision. */
  readonly kind: ChatErrorKind;
  /** True when text or reasoning was streamed before the failure; a retry must discard it. */
  partialOutput = false;

  /** Creates an error of the given kind. */
  constructor(kind: ChatErrorKind, message: string) {
    super(message);
    this.name = "ChatError";
    this.kind = kind;
  }
}
