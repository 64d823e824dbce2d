/**
 * Token counting for the fake server, with a real BPE tokenizer (o200k_base, as used by
 * gpt-4o and later), so tests measure prompts the way a provider would.
 *
 * @module
 */
// A test-only dependency: kept out of deno.json and deno.lock (tests use tests/deno.lock) so that
// `deno compile`, which bundles every npm package in the lockfile, does not ship it.
// deno-lint-ignore no-import-prefix
import { encode } from "npm:gpt-tokenizer@^3.4.0";
import { imagePromptTokens, type WireImage } from "./image_parts.ts";

/** Tokens added per message for role and separators, as in OpenAI's counting recipe. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** The parts of a tool call that count towards the prompt. */
export interface CountableToolCall {
  /** The called function. */
  readonly function: { readonly name: string; readonly arguments: string };
}

/** The parts of a chat message that count towards the prompt. */
export interface CountableMessage {
  /** Message text; `null` or absent for an assistant message with only tool calls. */
  readonly content?: string | null;
  /** Tool calls of an assistant message. */
  readonly "tool_calls"?: readonly CountableToolCall[];
  /** Images of a user message, counted by OpenAI's tile rule. */
  readonly images?: readonly WireImage[];
}

/** The parts of a chat-completions request body that count towards the prompt. */
export interface CountableRequest {
  /** The conversation sent to the model. */
  readonly messages: readonly CountableMessage[];
  /** Tool definitions, counted as their JSON text. */
  readonly tools?: readonly unknown[];
}

/**
 * Count the BPE tokens of a text.
 *
 * Contract: deterministic; special-token markers such as `<|endoftext|>` count as plain text.
 */
export function countTextTokens(text: string): number {
  if (text === "") return 0;
  return encode(text, { disallowedSpecial: new Set() }).length;
}

/**
 * Count the prompt tokens of a request: per message its content, images, tool call names
 * and arguments plus {@link MESSAGE_OVERHEAD_TOKENS}, plus the JSON text of `tools`.
 *
 * Contract: deterministic and additive, so a test can predict the count of a request from
 * the counts of its parts. An approximation of a provider's count, not byte-exact.
 */
export function countPromptTokens(request: CountableRequest): number {
  let total = 0;
  for (const message of request.messages) {
    total += MESSAGE_OVERHEAD_TOKENS + countTextTokens(message.content ?? "");
    for (const image of message.images ?? []) total += imagePromptTokens(image);
    for (const call of message.tool_calls ?? []) {
      total += countTextTokens(call.function.name) + countTextTokens(call.function.arguments);
    }
  }
  if (request.tools !== undefined && request.tools.length > 0) {
    total += countTextTokens(JSON.stringify(request.tools));
  }
  return total;
}
