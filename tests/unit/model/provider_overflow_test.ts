/**
 * Context-overflow wordings: each provider's recorded (or documented) error body,
 * replayed over HTTP, is a context overflow the agent compacts for; other errors that
 * speak of tokens are not.
 */
import { assertEquals, assertInstanceOf } from "@std/assert";
import { createChatClient } from "../../../src/model/client.ts";
import { ChatError } from "../../../src/model/chat_model.ts";
import { type Reply, startFakeServer } from "../../support/fake_server.ts";
import { replay, trafficTest } from "../../support/provider_fixtures.ts";

async function failure(reply: Reply): Promise<ChatError> {
  await using server = await startFakeServer({ handler: () => reply });
  const client = createChatClient({ baseURL: server.url, apiKey: "k", model: "m", maxRetries: 0 });
  const error = await client.complete({ system: "s", messages: [{ role: "user", content: "hi" }] })
    .then(() => undefined, (error: unknown) => error);
  assertInstanceOf(error, ChatError);
  return error;
}

const OVERFLOWS: Record<string, [string, string]> = {
  OpenAI: [
    "openai/context-length-exceeded.json",
    "This model's maximum context length is 4097 tokens. However, your messages resulted in 4294 tokens. Please reduce the length of the messages",
  ],
  Azure: [
    "azure/context-length-exceeded.json",
    "This model's maximum context length is 8192 tokens. However, your messages resulted in 10383 tokens. Please reduce the length of the messages",
  ],
  "Anthropic route": [
    "anthropic/prompt-too-long.json",
    "prompt is too long: 200251 tokens > 200000 maximum",
  ],
  "Anthropic through OpenRouter": [
    "openrouter/anthropic-prompt-too-long.json",
    "Provider returned error: prompt is too long: 200251 tokens > 200000 maximum",
  ],
  Groq: [
    "groq/context-length-exceeded.json",
    "Please reduce the length of the messages or completion",
  ],
  xAI: [
    "xai/prompt-length.json",
    "This model's maximum prompt length is 131072 but the request contains 136973 tokens",
  ],
  Gemini: [
    "gemini/input-token-count.json",
    "The input token count (1200293) exceeds the maximum number of tokens allowed (1048576)",
  ],
  Mistral: [
    "mistral/context-length.json",
    "Prompt contains 40106 tokens and 0 draft tokens, too large for model with 32768 maximum context length",
  ],
  DeepSeek: [
    "deepseek/context-length-exceeded.json",
    "This model's maximum context length is 131072 tokens. However, you requested 131749 tokens (131749 in the messages, 0 in the completion). Please reduce the length of the messages or completion",
  ],
  Kimi: [
    "moonshot/token-limit.json",
    "Invalid request: Your request exceeded model token limit: 262144 (requested: 269030)",
  ],
  vLLM: [
    "vllm/context-length.json",
    "This model's maximum context length is 131072 tokens. However, you requested 351430 tokens. Please reduce the length of the messages or completion",
  ],
  "llama.cpp": [
    "llama.cpp/exceed-context-size.json",
    "the request exceeds the available context size. try increasing the context size or enable context shift",
  ],
  "LM Studio": [
    "lmstudio/context-overflow.json",
    "Trying to keep the first 14538 tokens when context the overflows. However, the model is loaded with context length of only 2048 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input",
  ],
  Ollama: [
    "ollama/prompt-too-long.json",
    "the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length",
  ],
};

trafficTest(
  "each provider's context-overflow body is a context overflow with its message",
  async (t) => {
    for (const [provider, [fixture, message]] of Object.entries(OVERFLOWS)) {
      await t.step(provider, async () => {
        const error = await failure(await replay(fixture));
        assertEquals([error.kind, error.message], [
          "context_overflow",
          `The request is too long for the model: ${message}`,
        ]);
      });
    }
  },
);

function jsonError(status: number, body: unknown): Reply {
  return { type: "raw", status, contentType: "application/json", parts: [JSON.stringify(body)] };
}

trafficTest(
  "errors that mention tokens or context but are not overflows keep their kind",
  async () => {
    assertEquals((await failure(await replay("groq/rate-limit-tpm.json"))).kind, "rate_limited");
    assertEquals(
      (await failure(await replay("gemini/rate-limit.json"))).message,
      "Rate limited (429): You exceeded your current quota, please check your plan",
    );
    assertEquals(
      (await failure(await replay("deepseek/missing-reasoning-content.json"))).kind,
      "bad_request",
    );
    const dashscope = await failure(await replay("dashscope/malformed-tool-arguments.json"));
    assertEquals(
      dashscope.message,
      `The provider rejected the request (400): <400> InternalError.Algo.InvalidParameter: The "function.arguments" parameter of the code model must be in JSON format`,
    );
    const groqLimit = jsonError(400, {
      error: {
        message:
          "max_completion_tokens must be less than or equal to 40960, the maximum value for max_completion_tokens is less than the context_window for this model",
        type: "invalid_request_error",
        param: "max_completion_tokens",
      },
    });
    assertEquals((await failure(groqLimit)).kind, "bad_request");
    const upstream = jsonError(502, {
      error: { message: "This model's maximum context length is 4096 tokens", code: 502 },
    });
    assertEquals((await failure(upstream)).kind, "server");
  },
);
