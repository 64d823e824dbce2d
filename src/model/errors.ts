/**
 * Turns whatever a chat request threw into a `ChatError` a person can act on,
 * and decides how long to wait before a retry.
 *
 * @module
 */
import { providerMessage } from "./error_body.ts";
import { ChatError } from "./chat_model.ts";
import { REPLY_LIMITS } from "./limits.ts";
import { isContextOverflow } from "./overflow.ts";
import { isObject } from "../core/mod.ts";

/** What the classifier needs to know beyond the error itself. */
export interface FailureContext {
  baseURL: string;
  model: string;
  aborted: boolean;
}

/**
 * Classifies a failure from the SDK or the network.
 * Contract: returns one-line messages that never contain the API key; an error object
 * the provider sent inside a stream is classified by its content, never as unreachable.
 */
export function classifyChatFailure(error: unknown, context: FailureContext): ChatError {
  if (context.aborted) return new ChatError("aborted", "Interrupted");
  const status = statusOf(error);
  const body = bodyOf(error);
  if (status === undefined && body !== undefined) return classifyStreamError(body);
  const detail = detailOf(error);
  if (status === undefined) {
    return new ChatError(
      "unreachable",
      `Cannot reach the model server at "${context.baseURL}" (${unreachableReason(error)}): ` +
        'is the server running, and is "baseURL" in provider.json right?',
    );
  }
  if (isContextOverflow(status, detail, body)) {
    return new ChatError("context_overflow", `The request is too long for the model: ${detail}`);
  }
  if (status === 401 || status === 403) {
    return new ChatError(
      "auth",
      `The provider refused the API key (${status}): ${detail}; check "apiKey" in provider.json`,
    );
  }
  if (status === 404) {
    return new ChatError(
      "not_found",
      `The provider does not serve model "${context.model}" at "${context.baseURL}" (404): ${detail}; check "model" and "baseURL" in provider.json`,
    );
  }
  if (status === 429 && isQuota(body)) {
    return new ChatError(
      "bad_request",
      `The account has no quota left (429 insufficient_quota): ${detail}; check its plan and billing`,
    );
  }
  if (status === 429) return new ChatError("rate_limited", `Rate limited (429): ${detail}`);
  if (status >= 500 || status === 408 || status === 409) {
    return new ChatError("server", `The provider failed (${status}): ${detail}`);
  }
  const hint = /max_completion_tokens/.test(detail)
    ? `; set "outputLimitField": "max_completion_tokens" in provider.json`
    : "";
  return new ChatError(
    "bad_request",
    `The provider rejected the request (${status}): ${detail}${hint}`,
  );
}

/**
 * A failure while reading a stream the server had started: the error object it sent in
 * the stream, classified by its content, or else a dropped connection (retried).
 */
export function streamFailure(error: unknown): ChatError {
  if (error instanceof SyntaxError) {
    return new ChatError(
      "server",
      "Invalid reply from the provider: a streamed chunk is not valid JSON",
    );
  }
  const body = bodyOf(error);
  if (body === undefined) return new ChatError("server", "The connection dropped mid-reply");
  return classifyStreamError(body);
}

/**
 * Classifies an error object a provider sent inside a stream (after HTTP 200):
 * overflow, rate limit or overload (retried with backoff), a server failure (retried),
 * or anything else (one line with the provider's message).
 */
export function classifyStreamError(body: unknown): ChatError {
  const message = oneLine(providerMessage(body) ?? shortJson(body));
  const fields = isObject(body) ? body : {};
  if (isContextOverflow(undefined, message, body)) {
    return new ChatError("context_overflow", `The request is too long for the model: ${message}`);
  }
  if (fields.code === 429 || /rate.?limit|overloaded|too many requests/i.test(message)) {
    return new ChatError("rate_limited", `The provider is rate limiting or overloaded: ${message}`);
  }
  const code = typeof fields.code === "number" ? fields.code : 0;
  if (code >= 500 || fields.code === "server_error" || fields.type === "server_error") {
    return new ChatError("server", `The provider failed mid-reply: ${message}`);
  }
  return new ChatError("bad_request", `The provider reported an error mid-reply: ${message}`);
}

/**
 * How long to wait before retry number `attempt` (1-based): the server's
 * `retry-after-ms` or `retry-after` when given (at most 60 s), else exponential
 * backoff from 0.5 s capped at 8 s, with jitter.
 */
export function retryDelayMs(error: unknown, attempt: number): number {
  const headers = headersOf(error);
  const millis = Number(headers?.get("retry-after-ms"));
  if (headers?.get("retry-after-ms") && Number.isFinite(millis) && millis >= 0) {
    return Math.min(millis, 60_000);
  }
  const after = headers?.get("retry-after");
  if (after) {
    const seconds = Number(after);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(after) - Date.now();
    if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, 60_000);
  }
  const base = Math.min(500 * 2 ** (attempt - 1), 8000);
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null || !("status" in error)) return undefined;
  return typeof error.status === "number" ? error.status : undefined;
}

/** The `error` value an SDK error carries: the response body's `error`, or a stream's. */
function bodyOf(error: unknown): unknown {
  if (typeof error !== "object" || error === null || !("error" in error)) return undefined;
  return error.error ?? undefined;
}

/**
 * A provider's text as one line of at most `messageChars` characters (cut with `…`).
 * Contract: linear in `messageChars`, whatever the length of `text`.
 */
export function oneLine(text: string): string {
  const limit = REPLY_LIMITS.messageChars;
  const line = text.slice(0, limit * 2).replace(/\s+/g, " ").trim();
  const cut = line.length > limit ? `${line.slice(0, limit)}…` : line.replace(/\.$/, "");
  return cut || "no details";
}

/** OpenAI's 429 for an account without credit: billing, not a rate limit (no retry helps). */
function isQuota(body: unknown): boolean {
  return isObject(body) &&
    (body.code === "insufficient_quota" || body.type === "insufficient_quota");
}

/** Some of a value as JSON, for an error without a message; never throws. */
function shortJson(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, REPLY_LIMITS.messageChars);
  } catch {
    return "an error the provider sent without a message";
  }
}

function headersOf(error: unknown): Headers | undefined {
  if (typeof error !== "object" || error === null || !("headers" in error)) return undefined;
  return error.headers instanceof Headers ? error.headers : undefined;
}

function detailOf(error: unknown): string {
  const status = statusOf(error);
  let text = error instanceof Error ? error.message : String(error);
  if (status !== undefined && text.startsWith(`${status} `)) text = text.slice(`${status} `.length);
  if (status !== undefined && text === "status code (no body)") {
    return `HTTP ${status} with an empty body`;
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : "";
  if (cause && !text.includes(cause)) text = `${text} (${cause})`;
  return oneLine(text);
}

/** The innermost cause of a connection failure, in a few words. */
function unreachableReason(error: unknown): string {
  const messages: string[] = [];
  for (let cause = error; cause instanceof Error; cause = cause.cause) messages.push(cause.message);
  const all = messages.join(" ");
  if (/connection refused/i.test(all)) return "connection refused";
  if (/dns error|name or service not known|failed to lookup/i.test(all)) {
    return "the host name does not resolve";
  }
  if (/timed? ?out/i.test(all)) return "the connection timed out";
  if (/certificate|tls|ssl/i.test(all)) return "TLS failed: check http vs https";
  const innermost = messages.at(-1) ?? String(error);
  return innermost.replace(/\s+/g, " ").trim().replace(/\.$/, "").slice(0, 120) || "no details";
}
