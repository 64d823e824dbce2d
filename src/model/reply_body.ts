/**
 * A 200 answer that is not an event stream: an error inside a 200 (MiniMax's `base_resp`,
 * an `error` object), a whole chat completion from a server that ignored `stream: true`, or
 * an HTML page where the API was expected.
 *
 * @module
 */
import { ChatError } from "./chat_model.ts";
import { classifyStreamError, oneLine } from "./errors.ts";
import { htmlPage, readBody } from "./http.ts";
import type { ReplyLimits } from "./limits.ts";
import type { ReplyAssembler } from "./stream.ts";
import { isObject } from "../core/mod.ts";

/** Whether a 200 response is to be read whole rather than as an event stream. */
export function isWholeBody(response: Response): boolean {
  const type = response.headers.get("content-type") ?? "";
  return /application\/json|text\/html/i.test(type) && !/event-stream/i.test(type);
}

/**
 * Reads a whole 200 body into `reply`, or throws the error it holds.
 * Contract: throws ChatError: classified as any error when the body carries one, "bad_request"
 * for an HTML page, "server" (retried) for a body no client can read.
 */
export async function readWholeBody(
  response: Response,
  reply: ReplyAssembler,
  options: { limits: ReplyLimits; timeoutMs: number },
): Promise<void> {
  const { limits, timeoutMs } = options;
  const read = await readBody(response.body, limits.sseLineChars, timeoutMs);
  const html = htmlPage(response.headers, read.text);
  if (html !== undefined) {
    throw new ChatError(
      "bad_request",
      `The provider answered 200 with an ${html} instead of a reply; check "baseURL" in provider.json`,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(read.text);
  } catch {
    throw new ChatError("server", "Invalid reply from the provider: the JSON reply is not valid");
  }
  if (!isObject(body)) {
    throw new ChatError("server", "Invalid reply from the provider: not a JSON object");
  }
  const status = isObject(body.base_resp) ? body.base_resp : {};
  if (typeof status.status_code === "number" && status.status_code !== 0) {
    throw baseRespFailure(status.status_code, status.status_msg);
  }
  if (body.error !== undefined && body.error !== null) throw classifyStreamError(body.error);
  const choices = Array.isArray(body.choices) ? body.choices : [];
  // A whole completion reads as one chunk whose delta is the message.
  reply.add({
    ...body,
    choices: choices.map((choice) =>
      isObject(choice) ? { ...choice, delta: choice.message } : choice
    ),
  });
}

/**
 * MiniMax's codes (its API reference, "Error Codes"; the mapping of lobehub/lobehub PR
 * #10255): transient ones retried, a refused key and an empty balance said plainly.
 */
const MINIMAX_RETRIED = new Set([1000, 1001, 1002, 1024, 1033, 1039, 1041, 2045]);
const MINIMAX_AUTH = new Set([1004, 2049]);
const MINIMAX_BALANCE = new Set([1008, 2056]);

/** An error MiniMax put in `base_resp` of a 200 answer. */
function baseRespFailure(code: number, message: unknown): ChatError {
  const text = oneLine(typeof message === "string" ? message : "no message");
  const label = `(MiniMax status ${code})`;
  if (MINIMAX_AUTH.has(code)) {
    return new ChatError(
      "auth",
      `The provider refused the API key ${label}: ${text}; check "apiKey" in provider.json`,
    );
  }
  if (MINIMAX_BALANCE.has(code)) {
    return new ChatError(
      "bad_request",
      `The account has no quota left ${label}: ${text}; check its plan and balance`,
    );
  }
  if (MINIMAX_RETRIED.has(code)) {
    return new ChatError(
      code === 1002 || code === 1039 ? "rate_limited" : "server",
      `The provider failed ${label}: ${text}`,
    );
  }
  const classified = classifyStreamError({ message: text });
  if (classified.kind === "context_overflow") return classified;
  return new ChatError("bad_request", `The provider rejected the request ${label}: ${text}`);
}
