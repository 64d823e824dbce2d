/**
 * Reads provider error bodies, whatever their shape: OpenAI's `{error: {message}}`,
 * Gemini's one-element array, vLLM's top-level `{object: "error", message}`, a bare
 * `{error: "text"}` (xAI, LM Studio, Ollama), Anthropic's `{type: "error", error}`, and
 * OpenRouter's provider errors whose real message sits in `error.metadata.raw`.
 *
 * @module
 */
import { isObject } from "../core/mod.ts";

type Fields = Record<string, unknown>;

/** Characters of a provider's nested raw error kept in a message. */
const RAW_LIMIT = 300;

/**
 * Rewrites an error response body into OpenAI's `{error: {message, ...}}` form so that
 * the SDK reports its message; a body it cannot read is returned unchanged.
 * Contract: pure; never throws.
 */
export function normalizeErrorBody(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  const error = errorObject(body);
  return error === undefined ? text : JSON.stringify({ error });
}

/**
 * The message of an `error` value as providers send it (a string, or an object with
 * `message`), with OpenRouter's nested provider message appended.
 * Contract: pure; undefined when there is no message to show.
 */
export function providerMessage(error: unknown): string | undefined {
  if (typeof error === "string") return error.trim() || undefined;
  if (!isObject(error) || typeof error.message !== "string") return undefined;
  const raw = isObject(error.metadata) ? rawMessage(error.metadata.raw) : undefined;
  return raw && !error.message.includes(raw) ? `${error.message}: ${raw}` : error.message;
}

function errorObject(body: unknown): Fields | undefined {
  if (Array.isArray(body)) return body.length === 1 ? errorObject(body[0]) : undefined;
  if (!isObject(body)) return undefined;
  if (isObject(body.error)) {
    const message = providerMessage(body.error);
    return message === undefined ? undefined : { ...body.error, message };
  }
  if (typeof body.error === "string") return { message: body.error };
  if (typeof body.message === "string") {
    const { object: _object, ...rest } = body;
    return rest;
  }
  return undefined;
}

function rawMessage(raw: unknown): string | undefined {
  if (typeof raw !== "string" || raw.trim() === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return raw.trim().slice(0, RAW_LIMIT);
  }
  const inner = errorObject(parsed);
  const message = inner && typeof inner.message === "string" ? inner.message : raw.trim();
  return message.slice(0, RAW_LIMIT);
}
