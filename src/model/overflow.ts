/**
 * Whether an error says "the prompt does not fit the context window", in the words and codes
 * of every provider powercode has seen.
 *
 * @module
 */
import { REPLY_LIMITS } from "./limits.ts";
import { isObject } from "../core/mod.ts";

/**
 * How servers say "the prompt does not fit", one pattern per wording: OpenAI, Azure, DeepSeek,
 * vLLM and OpenRouter ("maximum context length is"), OpenAI's newer "exceeds the context
 * window", Azure's newer limit, Anthropic ("prompt is too long: N tokens > M"), Groq ("reduce
 * the length of the messages"), xAI ("maximum prompt length is"), Gemini ("input token count
 * (N) exceeds the maximum number of tokens"), Mistral ("too large for model with N maximum
 * context length"), Kimi ("exceeded model token limit"), llama.cpp ("exceeds the available
 * context size"), LM Studio ("when context the overflows", "greater than the context length"),
 * Ollama ("prompt is longer than the context length", "prompt too long; exceeded ... context
 * length"), vLLM ("longer than the model's context length"), DashScope ("range of input length
 * should be"), GitHub Copilot ("prompt token count of N exceeds the limit of M", microsoft/vscode
 * issue #289219), Hugging Face TGI ("`inputs` tokens + `max_new_tokens` must be <= N",
 * huggingface/huggingface_hub issue #2763), Bedrock ("Input is too long for requested model")
 * and MiniMax ("context window exceeds limit"), the last two as listed by badlogic/pi-mono
 * `packages/ai/src/utils/overflow.ts`.
 * Contract: no pattern backtracks more than linearly: every gap is bounded, and the text they
 * are tested on is cut to `messageChars` first.
 */
const OVERFLOW_WORDINGS = [
  /maximum context length is \d+/i,
  /exceeds the context window/i,
  /input tokens exceed the configured limit/i,
  /prompt is too long: \d+ tokens > \d+/i,
  /reduce the length of the messages/i,
  /maximum prompt length is \d+/i,
  /input token count[^a-z]{0,40}exceeds the maximum number of tokens/i,
  /too large for model with \d+ maximum context length/i,
  /exceeded model token limit/i,
  /exceeds the available context size/i,
  /when context (the )?overflows/i,
  /greater than the context length/i,
  /prompt is longer than the context length/i,
  /prompt too long; exceeded (max )?context length/i,
  /longer than the model's context length/i,
  /range of input length should be/i,
  /prompt token count of \d+ exceeds the limit of \d+/i,
  /`?inputs`? tokens \+ `?max_new_tokens`? must be <= \d+/i,
  /input is too long for requested model/i,
  /context window exceeds limit/i,
];

/** Error codes and types that mean "the prompt does not fit" whatever the wording. */
const OVERFLOW_CODES = new Set([
  "context_length_exceeded",
  "exceed_context_size_error",
  "model_max_prompt_tokens_exceeded",
]);

/**
 * Whether a failure is a context overflow: for 400 and 422 (TGI) by code or wording, any 413
 * (Payload Too Large; Cerebras sends it with no body), or an error sent mid-stream.
 */
export function isContextOverflow(
  status: number | undefined,
  detail: string,
  body?: unknown,
): boolean {
  if (status === 413) return true;
  if (status !== undefined && status !== 400 && status !== 422) return false;
  const fields = isObject(body) ? body : {};
  if (OVERFLOW_CODES.has(String(fields.code)) || OVERFLOW_CODES.has(String(fields.type))) {
    return true;
  }
  const text = detail.slice(0, REPLY_LIMITS.messageChars);
  return OVERFLOW_WORDINGS.some((pattern) => pattern.test(text));
}
