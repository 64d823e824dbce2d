/**
 * The stream reader against recorded provider streams (../shared/provider-traffic/corpus/),
 * replayed by the fake server through the real client: what the user gets back for each quirk.
 */
import { assert, assertEquals, assertInstanceOf, assertMatch } from "@std/assert";
import { createChatClient } from "../../../src/model/client.ts";
import { ChatError, type ChatOptions, type ChatRequest } from "../../../src/model/chat_model.ts";
import { type Reply, startFakeServer } from "../../support/fake_server.ts";
import { replay, trafficTest } from "../../support/provider_fixtures.ts";
import { sequence, sseReply } from "../../support/scripts.ts";

const REQUEST: ChatRequest = { system: "be brief", messages: [{ role: "user", content: "hi" }] };

/** Streams `replies` in order to one request (retries included), recording callbacks. */
async function ask(replies: Reply[], maxRetries = 0) {
  await using server = await startFakeServer({ handler: sequence(replies) });
  const seen: string[] = [];
  const options: ChatOptions = {
    onText: (text) => seen.push(`text:${text}`),
    onReasoning: (text) => seen.push(`reasoning:${text}`),
    onDiscard: () => seen.push("discard"),
    onRetry: ({ reason }) => seen.push(`retry:${reason}`),
  };
  const client = createChatClient({ baseURL: server.url, apiKey: "k", model: "m", maxRetries });
  try {
    const reply = await client.complete(REQUEST, options);
    return { reply, seen, statuses: server.requests.map((request) => request.status) };
  } catch (error) {
    return { error, seen, statuses: server.requests.map((request) => request.status) };
  }
}

async function answer(fixture: string) {
  const result = await ask([await replay(fixture)]);
  if (result.reply === undefined) throw result.error;
  return result.reply;
}

trafficTest(
  "Azure: content-filter chunks without delta, even after the finish, keep the answer",
  async () => {
    for (const fixture of ["azure/content-filter-annotations.chunks.jsonl"]) {
      const result = await ask([await replay(fixture)]);
      assertEquals(result.statuses, [200]);
      assertEquals(result.reply?.message, {
        role: "assistant",
        content: "Hello World",
        toolCalls: [],
      });
    }
    const router = await answer("azure/model-router.chunks.jsonl");
    assertEquals(router.message.content, "Capital of Denmark.");
    assertEquals(router.finishReason, "stop");
  },
);

trafficTest(
  "Azure and OpenAI: finish reasons length and content_filter reach the reply",
  async () => {
    assertEquals((await answer("openai/finish-length.chunks.jsonl")).finishReason, "length");
    const filtered = await answer("azure/finish-content-filter.chunks.jsonl");
    assertEquals([filtered.message.content, filtered.finishReason], [
      "Capital of Denmark.",
      "content_filter",
    ]);
  },
);

trafficTest(
  "Mistral: typed content parts stream as reasoning and text, never [object Object]",
  async () => {
    const { reply, seen } = await ask([await replay("mistral/thinking-parts.chunks.jsonl")]);
    assertEquals(reply?.message, {
      role: "assistant",
      content: "2 + 2 = 4",
      toolCalls: [],
      reasoning: "The user is asking for 2+2. This is basic arithmetic. 2+2=4.",
    });
    assertEquals(seen, [
      "reasoning:The user is asking",
      "reasoning: for 2+2. This is basic arithmetic. 2+2=4.",
      "text:2 + 2 = 4",
    ]);
    const long = await answer("mistral/thinking-parts-long.chunks.jsonl");
    assertEquals(long.message.content, "391");
    assertEquals(long.message.reasoning?.length, 335);
  },
);

trafficTest("Mistral: empty choices mid-stream and a tool call without index", async () => {
  assertEquals((await answer("mistral/empty-choices.chunks.jsonl")).message.content, "Hello!");
  assertEquals((await answer("mistral/tool-call.chunks.jsonl")).message.toolCalls, [
    { id: "gSIMJiOkT", name: "weather", arguments: '{"location": "San Francisco"}' },
  ]);
});

trafficTest(
  "reasoning_content (DeepSeek, xAI, Kimi, DashScope) is kept and marked for replay",
  async () => {
    const deepseek = await answer("deepseek/thinking-tool-call.chunks.jsonl");
    assertEquals(deepseek.message.replayReasoning, true);
    assertMatch(
      deepseek.message.reasoning ?? "",
      /^The user asks about the weather in San Francisco/,
    );
    assertEquals(deepseek.message.toolCalls.map((call) => call.id), [
      "call_00_IhCAliIHtM9gKpgfqbBV9873",
    ]);
    const xai = await answer("xai/reasoning-tool-call.chunks.jsonl");
    assertEquals([xai.message.reasoning, xai.message.replayReasoning], [
      "First, the user is",
      true,
    ]);
    const kimi = await answer("moonshot/reasoning.chunks.jsonl");
    assertEquals([kimi.message.content, kimi.message.reasoning], ["Hello!", "Thinking aloud. "]);
    const qwen = await answer("dashscope/reasoning.chunks.jsonl");
    assertEquals([qwen.message.reasoning?.length, qwen.message.content.length], [3301, 816]);
  },
);

trafficTest(
  "Groq's 'reasoning' field and llama.cpp's reasoning_content stream as reasoning",
  async () => {
    const groq = await answer("groq/reasoning.chunks.jsonl");
    assertEquals(groq.message.reasoning?.length, 2952);
    assertEquals(groq.message.replayReasoning, undefined);
    assertEquals(groq.totalTokens, 1124);
    const llama = await answer("llama.cpp/reasoning.sse");
    assertEquals([llama.message.reasoning, llama.totalTokens], ["We", 1332]);
  },
);

trafficTest(
  "usage: prompt, completion and cached tokens in each provider's recorded shape",
  async () => {
    const usage = async (fixture: string) => (await answer(fixture)).usage;
    // OpenAI's prompt_tokens_details.cached_tokens, as DeepSeek sends it on a cache hit.
    assertEquals(await usage("deepseek/thinking-tool-call.chunks.jsonl"), {
      promptTokens: 374,
      completionTokens: 61,
      cachedTokens: 256,
    });
    // xAI counts reasoning apart: total 513 = 291 prompt + 26 completion + 196 reasoning.
    assertEquals(await usage("xai/reasoning-tool-call.chunks.jsonl"), {
      promptTokens: 291,
      completionTokens: 222,
      cachedTokens: 290,
    });
    // DeepSeek's own prompt_cache_hit_tokens beside the OpenAI field; Mistral and Groq send none.
    assertEquals(await usage("deepseek/text.chunks.jsonl"), {
      promptTokens: 22,
      completionTokens: 98,
      cachedTokens: 0,
    });
    assertEquals(await usage("groq/tool-call.chunks.jsonl"), {
      promptTokens: 210,
      completionTokens: 15,
      cachedTokens: 0,
    });
  },
);

trafficTest(
  "tool calls: split, whole, parallel, name-only first pieces, empty continuation ids",
  async () => {
    const calls = async (fixture: string) =>
      (await answer(fixture)).message.toolCalls.map((
        { id, name, arguments: args },
      ) => [id, name, args]);
    assertEquals(await calls("openai/text-then-tool-call.chunks.jsonl"), [
      ["call_NZa7xqfefoaMI2YYHowVXVlU", "weather", "{}"],
    ]);
    assertEquals(await calls("ollama/parallel-tool-calls.sse"), [
      ["call_wteop8bt", "run_command", '{"command":"ls"}'],
      ["call_rk2xye1l", "run_command", '{"command":"ls -l"}'],
    ]);
    assertEquals(await calls("vllm/tool-call.sse"), [
      ["chatcmpl-tool-ca99dda515524c6abe47d1ea22813507", "run_command", '{"command": "ls"}'],
    ]);
    assertEquals(await calls("llama.cpp/tool-call.sse"), [
      ["v2dh...", "run_command", '{"command":"pwd"}'],
    ]);
    assertEquals(await calls("dashscope/tool-call.chunks.jsonl"), [
      ["call_eee11723464a4b9eb8cee71d", "weather", '{"location": "San Francisco"}'],
    ]);
    assertEquals(await calls("groq/tool-call.chunks.jsonl"), [["tk85n1k4m", "weather", "{}"]]);
  },
);

trafficTest("Gemini: a tool call keeps extra_content with its thought signature", async () => {
  const reply = await answer("gemini/thought-signature-tool-call.sse");
  assertEquals(reply.message.toolCalls, [{
    id: "function-call-1",
    name: "read_file",
    arguments: '{"path":"notes.md"}',
    extra: { extra_content: { google: { thought_signature: "CrICAdHtim827fQ" } } },
  }]);
});

trafficTest(
  "OpenRouter: SSE comment lines are skipped; Ollama and LM Studio text streams",
  async () => {
    assertEquals(
      (await answer("openrouter/processing-comments.sse")).message.content,
      "Hello there",
    );
    assertEquals((await answer("ollama/text.sse")).message.content, "My name is Neo Vim.");
    assertEquals((await answer("lmstudio/text.sse")).message.content, "Hello world");
  },
);

trafficTest(
  "OpenRouter: a mid-stream server error is retried and its partial text discarded first",
  async () => {
    const result = await ask([
      await replay("openrouter/mid-stream-error.sse"),
      await replay("openrouter/processing-comments.sse"),
    ], 1);
    assertEquals(result.reply?.message.content, "Hello there");
    assertEquals(result.statuses, [200, 200]);
    assertEquals(result.seen, [
      "text:The answer starts",
      "discard",
      "retry:The provider failed mid-reply: Provider disconnected unexpectedly",
      "text:Hello",
      "text: there",
    ]);
  },
);

trafficTest(
  "a mid-stream overflow is a context overflow, never 'Cannot reach', never retried",
  async () => {
    for (
      const fixture of [
        "openrouter/mid-stream-overflow.sse",
        "lmstudio/context-overflow-in-stream.sse",
      ]
    ) {
      const result = await ask([await replay(fixture), await replay(fixture)], 1);
      assertInstanceOf(result.error, ChatError);
      assertEquals([result.error.kind, result.statuses.length], ["context_overflow", 1], fixture);
      assertMatch(result.error.message, /^The request is too long for the model: /);
      assertEquals(result.error.partialOutput, fixture.startsWith("openrouter"));
    }
  },
);

Deno.test("a reply without any choices is retried, then fails with one line", async () => {
  const usageOnly: Reply = sseReply([
    '{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":0,"total_tokens":9}}',
  ]);
  const result = await ask([usageOnly, usageOnly], 1);
  assertEquals(result.statuses, [200, 200]);
  assertInstanceOf(result.error, ChatError);
  assertEquals(result.error.kind, "server");
  assertEquals(
    result.error.message,
    'The provider sent a reply without any choices for model "m" (no text, no tool calls)',
  );
  assert(!result.seen.includes("discard"));
});

Deno.test("a stream ending with finish_reason error but no error object fails as a server error", async () => {
  const ended: Reply = sseReply([
    '{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Half"},"finish_reason":null}]}',
    '{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"error"}]}',
  ]);
  const result = await ask([ended]);
  assertInstanceOf(result.error, ChatError);
  assertEquals([result.error.kind, result.error.message, result.error.partialOutput], [
    "server",
    'The provider ended the reply with finish_reason "error"',
    true,
  ]);
});
