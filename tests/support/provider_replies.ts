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
 * then the finish chunk with `reasoning_content: null` and usage (shape of the recorded
 * deepseek-v4-flash stream in vercel/ai packages/deepseek/src/chat/__fixtures__/
 * deepseek-tool-call.chunks.txt). DeepSeek requires the reasoning back on this turn.
 */
export function deepseekThinkingToolCall(): RawReply {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, usage = {}) => ({
    id: "6e77be01",
    object: "chat.completion.chunk",
    created: 1786782779,
    model: "deepseek-v4-flash",
    choices: [{ index: 0, delta, logprobs: null, "finish_reason": finish }],
    usage: null,
    ...usage,
  });
  return sseReply([
    chunk({ role: "assistant", content: null, "reasoning_content": "" }),
    chunk({
      content: null,
      "reasoning_content": "The user asks about the weather in San Francisco.",
    }),
    chunk({ content: null, "reasoning_content": " I should call the weather tool." }),
    chunk({
      "tool_calls": [{
        index: 0,
        id: "call_00_IhCAliIHtM9gKpgf",
        type: "function",
        function: { name: "weather", arguments: "" },
      }],
    }),
    chunk({
      "tool_calls": [{ index: 0, function: { arguments: '{"location": "San Francisco"}' } }],
    }),
    chunk({ content: "", "reasoning_content": null }, "tool_calls", {
      usage: { "prompt_tokens": 388, "completion_tokens": 67, "total_tokens": 455 },
    }),
  ]);
}

/**
 * Gemini's OpenAI endpoint: a whole tool call carrying `extra_content.google.thought_signature`
 * in one chunk, then a usage chunk (https://ai.google.dev/gemini-api/docs/thought-signatures,
 * OpenAI compatibility). Gemini 3 rejects the next request without the signature.
 */
export function geminiSignedToolCall(): RawReply {
  return sseReply([
    {
      object: "chat.completion.chunk",
      created: 1763000000,
      model: "gemini-3-pro-preview",
      choices: [{
        index: 0,
        delta: {
          role: "assistant",
          "tool_calls": [{
            "extra_content": { google: { "thought_signature": "CrICAdHtim827fQ" } },
            function: { arguments: '{"path":"notes.md"}', name: "read_file" },
            id: "function-call-1",
            type: "function",
          }],
        },
        "finish_reason": "tool_calls",
      }],
    },
    {
      object: "chat.completion.chunk",
      created: 1763000000,
      model: "gemini-3-pro-preview",
      choices: [],
      usage: { "prompt_tokens": 40, "completion_tokens": 12, "total_tokens": 52 },
    },
  ]);
}
