/**
 * Small replies of our own in the shape of a provider's, for tests that need a provider's
 * tool-call turn without the recorded traffic beside the repository (each cites its source).
 *
 * @module
 */
import type { RawReply } from "./replies.ts";
import { sseReply } from "./scripts.ts";

/**
 * DeepSeek thinking mode: `reasoning_content` deltas with `content: null`, then a tool call,
 * then the finish chunk with `reasoning_content: null` and usage (the shape of the recorded
 * deepseek-v4-flash stream in vercel/ai packages/deepseek/src/chat/__fixtures__/
 * deepseek-tool-call.chunks.txt; our ids, text and numbers). DeepSeek requires the reasoning
 * back on this turn (https://api-docs.deepseek.com/guides/thinking_mode).
 */
export function deepseekThinkingToolCall(): RawReply {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, usage = {}) => ({
    id: "d5a90c32",
    object: "chat.completion.chunk",
    created: 1767225604,
    model: "deepseek-v4-flash",
    choices: [{ index: 0, delta, logprobs: null, "finish_reason": finish }],
    usage: null,
    ...usage,
  });
  return sseReply([
    chunk({ role: "assistant", content: null, "reasoning_content": "" }),
    chunk({
      content: null,
      "reasoning_content": "The user wants the weather in Lisbon.",
    }),
    chunk({ content: null, "reasoning_content": " The weather tool can tell." }),
    chunk({
      "tool_calls": [{
        index: 0,
        id: "call_00_Tq4Vx8Wn2Lp5Rs7Y",
        type: "function",
        function: { name: "weather", arguments: "" },
      }],
    }),
    chunk({
      "tool_calls": [{ index: 0, function: { arguments: '{"location": "Lisbon"}' } }],
    }),
    chunk({ content: "", "reasoning_content": null }, "tool_calls", {
      usage: { "prompt_tokens": 320, "completion_tokens": 45, "total_tokens": 365 },
    }),
  ]);
}

/**
 * Gemini's OpenAI endpoint: a whole tool call carrying `extra_content.google.thought_signature`
 * in one chunk, then a usage chunk (https://ai.google.dev/gemini-api/docs/thought-signatures,
 * OpenAI compatibility; our signature, id and numbers). Gemini 3 rejects the next request
 * without the signature.
 */
export function geminiSignedToolCall(): RawReply {
  return sseReply([
    {
      object: "chat.completion.chunk",
      created: 1767225605,
      model: "gemini-3-pro-preview",
      choices: [{
        index: 0,
        delta: {
          role: "assistant",
          "tool_calls": [{
            "extra_content": { google: { "thought_signature": "U2lnT3duMDAx" } },
            function: { arguments: '{"path":"notes.md"}', name: "read_file" },
            id: "function-call-3",
            type: "function",
          }],
        },
        "finish_reason": "tool_calls",
      }],
    },
    {
      object: "chat.completion.chunk",
      created: 1767225605,
      model: "gemini-3-pro-preview",
      choices: [],
      usage: { "prompt_tokens": 40, "completion_tokens": 12, "total_tokens": 52 },
    },
  ]);
}
