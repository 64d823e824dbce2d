/**
 * A provider's prompt cache as the fake server reports it: a request's cached tokens are
 * those of its longest leading run of [tools, message 1, message 2, …] equal to an earlier
 * request's, counted as `countPromptTokens` counts them (OpenAI's
 * `prompt_tokens_details.cached_tokens`, without its 1024-token minimum).
 *
 * @module
 */
import type { ChatRequest } from "./chat_request.ts";
import { countPromptTokens } from "./tokens.ts";

/** The prefixes of the requests answered so far. */
export class PromptCache {
  #seen: string[][] = [];

  /**
   * The cached prompt tokens of `body`, which then joins the cache.
   * Contract: the tokens of all elements add up to `countPromptTokens(body)`, so the cached
   * part never exceeds the prompt.
   */
  serve(body: ChatRequest): number {
    const tools = body.tools ?? [];
    const keys = [
      JSON.stringify(tools),
      ...body.messages.map((message) => JSON.stringify(message)),
    ];
    const tokens = [
      countPromptTokens({ messages: [], tools }),
      ...body.messages.map((message) => countPromptTokens({ messages: [message] })),
    ];
    const shared = Math.max(0, ...this.#seen.map((earlier) => commonPrefix(earlier, keys)));
    this.#seen.push(keys);
    return tokens.slice(0, shared).reduce((sum, count) => sum + count, 0);
  }
}

function commonPrefix(a: readonly string[], b: readonly string[]): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return length;
}
