/**
 * Turns whatever a chat request threw into a `ChatError` a person can act on,
 * and decides how long to wait before a retry.
 *
 * @module
 */
import { ChatError } from "./chat_model.ts";

/** What the classifier needs to know beyond the error itself. */
export interface FailureContext {
  baseURL: string;
  model: string;
  aborted: boolean;
}

/**
 * Wordings servers use for "the prompt does not fit": OpenAI and OpenRouter
 * (`context_length_exceeded`, "maximum context length"), vLLM ("longer than the
 * model's context length"), llama.cpp ("exceeds the available context size"),
 * LM Studio ("greater than the context length", "context overflows"), Ollama
 * ("prompt too long", "exceeds the context window").
 */
const OVERFLOW_PATTERN =
  /context_length_exceeded|exceed_context_size|maximum context length|context length|context size|context window|context overflow|the context overflows|prompt (is )?too long|too many tokens/i;

/**
 * Classifies a failure from the SDK or the network.
 * Contract: returns one-line messages that never contain the API key.
 */
export function classifyChatFailure(error: unknown, context: FailureContext): ChatError {
  if (context.aborted) return new ChatError("aborted", "Interrupted");
  const status = statusOf(error);
  const detail = detailOf(error);
  if (status === undefined) {
    return new ChatError(
      "unreachable",
      `Cannot reach the model server at "${context.baseURL}" (${unreachableReason(error)}): ` +
        'is the server running, and is "baseURL" in provider.json right?',
    );
  }
  if (OVERFLOW_PATTERN.test(detail) && status < 500) {
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
  if (status === 429) return new ChatError("rate_limited", `Rate limited (429): ${detail}`);
  if (status >= 500 || status === 408 || status === 409) {
    return new ChatError("server", `The provider failed (${status}): ${detail}`);
  }
  return new ChatError("bad_request", `The provider rejected the request (${status}): ${detail}`);
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

function headersOf(error: unknown): Headers | undefined {
  if (typeof error !== "object" || error === null || !("headers" in error)) return undefined;
  return error.headers instanceof Headers ? error.headers : undefined;
}

function detailOf(error: unknown): string {
  const status = statusOf(error);
  let text = error instanceof Error ? error.message : String(error);
  if (status !== undefined && text.startsWith(`${status} `)) text = text.slice(`${status} `.length);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : "";
  if (cause && !text.includes(cause)) text = `${text} (${cause})`;
  return text.replace(/\s+/g, " ").trim().replace(/\.$/, "") || "no details";
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
