/**
 * How much of a run's input a provider's prompt cache could serve: each request is seen as
 * the list [tools, message 1, message 2, …]; its shared part is the longest run of leading
 * elements equal to those of an earlier request, counted in the fake server's tokens, of
 * which OpenAI's rule caches nothing below 1,024 tokens and then whole 128-token steps.
 *
 * @module
 */
import type { RecordedRequest } from "../tests/support/fake_server.ts";
import { countTextTokens, MESSAGE_OVERHEAD_TOKENS } from "../tests/support/tokens.ts";

/** Price of a cached input token relative to an uncached one. */
export const CACHED_PRICE = 0.1;

/** The shortest prefix OpenAI caches, in tokens. */
export const CACHE_MIN_TOKENS = 1024;
/** Beyond `CACHE_MIN_TOKENS`, OpenAI caches prefixes in steps of this many tokens. */
export const CACHE_STEP_TOKENS = 128;

/**
 * The tokens OpenAI serves from its cache for a prefix of `sharedTokens` equal to an earlier
 * request's: none below 1,024, else 1,024 plus every whole 128-token step beyond it.
 * Contract: pure; never more than `sharedTokens`.
 */
export function cacheableTokens(sharedTokens: number): number {
  if (sharedTokens < CACHE_MIN_TOKENS) return 0;
  const steps = Math.floor((sharedTokens - CACHE_MIN_TOKENS) / CACHE_STEP_TOKENS);
  return CACHE_MIN_TOKENS + steps * CACHE_STEP_TOKENS;
}

/** One request as a list of elements: a key per element (its exact JSON) and its tokens. */
export interface RequestElements {
  keys: string[];
  tokens: number[];
}

/** Input tokens of a run, split by what a prefix cache could serve. */
export interface CacheFigures {
  /** Requests counted (accepted ones). */
  requests: number;
  inputTokens: number;
  cachedTokens: number;
  /** `cachedTokens / inputTokens`; 0 without input. */
  cacheableShare: number;
  /**
   * Tokens of elements no earlier request carried (new content, which no cache can serve):
   * `1 - firstSeenTokens / inputTokens` is the most any client could make cacheable.
   */
  firstSeenTokens: number;
  /** uncached + CACHED_PRICE × cached, in token-equivalents. */
  weightedCost: number;
}

/**
 * Splits a recorded request body into [tools, message 1, …], each with its exact JSON and its
 * tokens as `countPromptTokens` counts them, so the tokens add up to the request's count.
 * Contract: an absent `tools` key is an element of 0 tokens; content parts count their text.
 */
export function requestElements(raw: unknown): RequestElements {
  const body = isRecord(raw) ? raw : {};
  const tools = Array.isArray(body.tools) && body.tools.length > 0 ? body.tools : undefined;
  const keys = [tools === undefined ? "" : JSON.stringify(tools)];
  const tokens = [tools === undefined ? 0 : countTextTokens(JSON.stringify(tools))];
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    keys.push(JSON.stringify(message));
    tokens.push(messageTokens(message));
  }
  return { keys, tokens };
}

/**
 * The cache figures of the accepted requests of a run, in arrival order: each request's
 * cacheable part is `cacheableTokens` of its longest leading run of elements shared with any
 * earlier accepted request. Rejected requests are neither billed nor cached.
 * Contract: pure; quadratic in the number of requests, linear in their elements.
 */
export function cacheFigures(requests: readonly RecordedRequest[]): CacheFigures {
  const ids = new Map<string, number>();
  const seen: number[][] = [];
  let inputTokens = 0;
  let cachedTokens = 0;
  let firstSeenTokens = 0;
  for (const request of requests) {
    if (request.status !== 200) continue;
    const elements = requestElements(request.raw);
    const row = elements.keys.map((key, index) => {
      let id = ids.get(key);
      if (id === undefined) {
        ids.set(key, id = ids.size);
        firstSeenTokens += elements.tokens[index] ?? 0;
      }
      return id;
    });
    const shared = Math.max(0, ...seen.map((earlier) => commonPrefix(earlier, row)));
    const tokens = elements.tokens;
    inputTokens += sum(tokens, tokens.length);
    cachedTokens += cacheableTokens(sum(tokens, shared));
    seen.push(row);
  }
  const uncached = inputTokens - cachedTokens;
  return {
    requests: seen.length,
    inputTokens,
    cachedTokens,
    cacheableShare: inputTokens > 0 ? cachedTokens / inputTokens : 0,
    firstSeenTokens,
    weightedCost: uncached + CACHED_PRICE * cachedTokens,
  };
}

function commonPrefix(a: readonly number[], b: readonly number[]): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return length;
}

function sum(values: readonly number[], count: number): number {
  let total = 0;
  for (let index = 0; index < count; index++) total += values[index] ?? 0;
  return total;
}

function messageTokens(message: unknown): number {
  if (!isRecord(message)) return MESSAGE_OVERHEAD_TOKENS;
  let tokens = MESSAGE_OVERHEAD_TOKENS + countTextTokens(contentText(message.content));
  for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    const fn = isRecord(call) && isRecord(call.function) ? call.function : {};
    tokens += countTextTokens(typeof fn.name === "string" ? fn.name : "") +
      countTextTokens(typeof fn.arguments === "string" ? fn.arguments : "");
  }
  return tokens;
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => isRecord(part) && typeof part.text === "string" ? part.text : "")
    .join("");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
