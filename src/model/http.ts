/**
 * One POST to the chat-completions endpoint, and bounded reads of bodies that are not a
 * stream: an error body is read up to a cap and a deadline, and a gateway's HTML page is
 * reduced to its title.
 *
 * @module
 */
import { normalizeErrorBody } from "./error_body.ts";
import type { ReplyLimits } from "./limits.ts";
import { parseJsonObject, watchdog } from "../core/mod.ts";

/** Where to send requests. */
export interface Endpoint {
  url: string;
  apiKey: string;
  /** Time allowed until response headers arrive. */
  timeoutMs: number;
}

/**
 * POSTs `body` (JSON text) and returns the response once its headers arrived.
 * Contract: a non-2xx answer throws the SDK's `APIError` for its status, with the provider's
 * message from any error body shape, its first `errorBodyBytes` read within `errorBodyMs`,
 * and an HTML page reduced to its title; no headers within `timeoutMs` abort the request.
 */
export async function post(
  endpoint: Endpoint,
  body: string,
  options: { controller: AbortController; limits: ReplyLimits },
): Promise<Response> {
  const { controller, limits } = options;
  let timedOut = false;
  const headers = watchdog(endpoint.timeoutMs, () => {
    timedOut = true;
    controller.abort();
  });
  let response: Response;
  try {
    response = await fetch(endpoint.url, {
      method: "POST",
      headers: {
        "authorization": `Bearer ${endpoint.apiKey}`,
        "content-type": "application/json",
        "accept": "text/event-stream, application/json",
      },
      body,
      signal: controller.signal,
    });
  } catch (error) {
    if (!timedOut) throw error;
    throw new Error(`no response within ${endpoint.timeoutMs / 1000} s (timed out)`, {
      cause: error,
    });
  } finally {
    headers.stop();
  }
  if (response.ok) return response;
  // Loaded on the first error only: the SDK's error classes cost every start memory and time.
  const { APIError } = await import("openai/error");
  const read = await readBody(response.body, limits.errorBodyBytes, limits.errorBodyMs);
  const html = htmlPage(response.headers, read.text);
  if (html !== undefined) {
    throw APIError.generate(response.status, undefined, html, response.headers);
  }
  const text = normalizeErrorBody(read.text);
  const parsed = parseJsonObject(text);
  const error = parsed.ok ? parsed.value : undefined;
  const raw = read.cut ? `${text} … (the rest was not read)` : text;
  throw APIError.generate(response.status, error, error ? undefined : raw, response.headers);
}

/** A body read up to a cap: its text, and whether the cap or the deadline cut it. */
export interface BoundedText {
  text: string;
  cut: boolean;
}

/**
 * Reads at most `maxBytes` of `body`, for at most `timeoutMs`, then cancels the rest.
 * Contract: rejects only when the read itself fails (the request was aborted, the
 * connection dropped); a body cut by the cap or the deadline resolves with `cut: true`.
 */
export async function readBody(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  timeoutMs: number,
): Promise<BoundedText> {
  if (body === null) return { text: "", cut: false };
  const reader = body.getReader();
  const deadline = Promise.withResolvers<"deadline">();
  const timer = watchdog(timeoutMs, () => deadline.resolve("deadline"));
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  try {
    while (!cut) {
      const read = await Promise.race([reader.read(), deadline.promise]);
      if (read === "deadline") cut = true;
      else if (read.done) break;
      else {
        chunks.push(read.value);
        size += read.value.length;
        cut = size > maxBytes;
      }
    }
  } finally {
    timer.stop();
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(Math.min(size, maxBytes));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - offset);
    bytes.set(part, offset);
    offset += part.length;
  }
  return { text: new TextDecoder().decode(bytes), cut };
}

/** The title of an HTML page (bounded patterns: the text may be anything). */
const TITLE = /<title[^>]{0,200}>([^<]{0,300})</i;
const HTML_START = /^\s{0,100}<(!doctype html|html|head|body)\b/i;

/**
 * `HTML page "TITLE"` when the body is an HTML page (a gateway's or proxy's error page, of
 * several KB), else undefined.
 */
export function htmlPage(headers: Headers, text: string): string | undefined {
  const type = headers.get("content-type") ?? "";
  if (!/html/i.test(type) && !HTML_START.test(text)) return undefined;
  const title = TITLE.exec(text)?.[1]?.replace(/\s+/g, " ").trim();
  return title ? `HTML page "${title}"` : "HTML page without a title";
}
