/**
 * Reading a reply's token usage in the shapes providers report it: OpenAI's
 * `prompt_tokens_details.cached_tokens` (also DeepSeek, xAI, DashScope, Azure), DeepSeek's
 * `prompt_cache_hit_tokens`, Moonshot's top-level `cached_tokens`.
 *
 * @module
 */
import type { ReplyUsage } from "./chat_model.ts";
import { isCount, isObject } from "../core/mod.ts";

/**
 * The prompt, completion and cached tokens of a usage object; undefined without a prompt
 * token count.
 * Contract: pure and tolerant: a field of the wrong type counts as absent. Output counts
 * reasoning too: where `total_tokens` exceeds prompt plus completion (xAI reports reasoning
 * apart), the difference is output. Cached tokens never exceed the prompt.
 */
export function readUsage(usage: Record<string, unknown>): ReplyUsage | undefined {
  const prompt = usage.prompt_tokens;
  if (!isCount(prompt)) return undefined;
  const completion = isCount(usage.completion_tokens) ? usage.completion_tokens : 0;
  const total = usage.total_tokens;
  const details = isObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const cached = [details.cached_tokens, usage.prompt_cache_hit_tokens, usage.cached_tokens]
    .find(isCount) ?? 0;
  return {
    promptTokens: prompt,
    completionTokens: isCount(total) ? Math.max(completion, total - prompt) : completion,
    cachedTokens: Math.min(cached, prompt),
  };
}
