/**
 * The request after a recorded reply, checked by the fake server with each provider's own
 * rules: reasoning sent back where DeepSeek and Kimi require it, Gemini's thought
 * signatures, Mistral's tool-call ids, Ollama's JSON arguments, OpenAI's output limit; and
 * what the provider profile's overrides change in it.
 */
import { assertEquals, assertInstanceOf, assertStringIncludes } from "@std/assert";
import { type ChatClientOptions, createChatClient } from "../../../src/model/client.ts";
import { ChatError } from "../../../src/model/chat_model.ts";
import type { AssistantMessage, Message } from "../../../src/core/messages.ts";
import { type Reply, startFakeServer } from "../../support/fake_server.ts";
import { replay, trafficTest } from "../../support/provider_fixtures.ts";
import {
  type ProviderRule,
  refuseMaxTokens,
  requireJsonToolArguments,
  requireMistralToolCallIds,
  requireReasoningContent,
  requireThoughtSignatures,
} from "../../support/provider_rules.ts";
import { sequence, sseReply, text, toolCalls } from "../../support/scripts.ts";

type Fields = Record<string, unknown>;

/** Asks once for `first`, then sends the history built from its reply; returns both wire bodies. */
async function twoTurns(
  first: Reply,
  rules: ProviderRule[],
  history: (reply: AssistantMessage) => Message[] = toolTurn,
  options: Partial<ChatClientOptions> = {},
) {
  await using server = await startFakeServer({ handler: sequence([first, text("done")]), rules });
  const client = createChatClient({
    baseURL: server.url,
    apiKey: "k",
    model: "m",
    maxRetries: 0,
    ...options,
  });
  const start: Message = { role: "user", content: "go" };
  const { message } = await client.complete({ system: "s", messages: [start] });
  const messages = [start, ...history(message)];
  const outcome = await client.complete({ system: "s", messages }).catch((error) => error);
  const sent = (server.requests[1]?.raw as Fields).messages as Fields[];
  return { message, messages, outcome, status: server.requests[1]?.status, sent };
}

function toolTurn(reply: AssistantMessage): Message[] {
  return [
    reply,
    ...reply.toolCalls.map((call): Message => ({
      role: "tool",
      toolCallId: call.id,
      content: "sunny",
      isError: false,
    })),
  ];
}

trafficTest(
  "DeepSeek thinking mode: reasoning_content goes back on the tool-call turn only",
  async () => {
    const { status, sent, message } = await twoTurns(
      await replay("deepseek/thinking-tool-call.chunks.jsonl"),
      [requireReasoningContent()],
      (reply) => [...toolTurn(reply), {
        role: "assistant",
        content: "It is sunny.",
        toolCalls: [],
        reasoning: "The tool said sunny.",
        replayReasoning: true,
      }, {
        role: "user",
        content: "thanks",
      }],
    );
    assertEquals(status, 200);
    assertEquals(sent[2]?.reasoning_content, message.reasoning);
    assertEquals(sent[4], { role: "assistant", content: "It is sunny." });
  },
);

Deno.test("DeepSeek thinking mode: an empty reasoning_content is still sent back", async () => {
  const empty: Reply = sseReply([
    '{"id":"d","object":"chat.completion.chunk","created":1,"model":"deepseek-chat","choices":[{"index":0,"delta":{"role":"assistant","content":null,"reasoning_content":""},"finish_reason":null}]}',
    '{"id":"d","object":"chat.completion.chunk","created":1,"model":"deepseek-chat","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_0","type":"function","function":{"name":"weather","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}',
  ]);
  const { status, sent } = await twoTurns(empty, [requireReasoningContent()]);
  assertEquals([status, sent[2]?.reasoning_content], [200, ""]);
});

trafficTest(
  "a reasoning-mode provider answers one clear line when reasoning was not kept",
  async () => {
    const { outcome, status } = await twoTurns(
      await replay("deepseek/thinking-tool-call.chunks.jsonl"),
      [requireReasoningContent()],
      (reply) => toolTurn({ ...reply, replayReasoning: false }),
    );
    assertEquals(status, 400);
    assertInstanceOf(outcome, ChatError);
    assertEquals(
      outcome.message,
      "The provider rejected the request (400): Missing reasoning_content field in the assistant message at message index 2. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls",
    );
  },
);

trafficTest("reasoning that came as Groq's 'reasoning' field is never sent back", async () => {
  const { sent, status, message } = await twoTurns(
    await replay("groq/reasoning.chunks.jsonl"),
    [],
    (reply) =>
      toolTurn({ ...reply, toolCalls: [{ id: "tk85n1k4m", name: "weather", arguments: "{}" }] }),
  );
  assertEquals([status, message.reasoning?.length], [200, 2952]);
  assertEquals("reasoning_content" in (sent[2] ?? {}), false);
});

trafficTest("Gemini: the thought signature goes back with its tool call", async () => {
  const fixture = await replay("gemini/thought-signature-tool-call.sse");
  const { status, sent } = await twoTurns(fixture, [requireThoughtSignatures()]);
  assertEquals(status, 200);
  assertEquals((sent[2]?.tool_calls as Fields[])[0], {
    extra_content: { google: { thought_signature: "CrICAdHtim827fQ" } },
    id: "function-call-1",
    type: "function",
    function: { name: "read_file", arguments: '{"path":"notes.md"}' },
  });
  const bare = await twoTurns(
    fixture,
    [requireThoughtSignatures()],
    (reply) =>
      toolTurn({ ...reply, toolCalls: reply.toolCalls.map(({ extra: _, ...call }) => call) }),
  );
  assertInstanceOf(bare.outcome, ChatError);
  assertStringIncludes(
    bare.outcome.message,
    "The provider rejected the request (400): Function call is missing a thought_signature in functionCall parts",
  );
});

Deno.test("Mistral: calls without ids get 9-character ids that Mistral accepts back", async () => {
  const unnamed = toolCalls([{ name: "read_file", args: { path: "a" }, id: "" }]);
  const { status, message } = await twoTurns(unnamed, [requireMistralToolCallIds()]);
  assertEquals(status, 200);
  assertEquals(/^[A-Za-z0-9]{9}$/.test(message.toolCalls[0]?.id ?? ""), true);
  const named = await twoTurns(toolCalls([{ name: "read_file", args: {}, id: "call_1" }]), [
    requireMistralToolCallIds(),
  ]);
  assertInstanceOf(named.outcome, ChatError);
  assertEquals(
    named.outcome.message,
    "The provider rejected the request (400): Tool call id was call_1 but must be a-z, A-Z, 0-9, with a length of 9",
  );
});

Deno.test("Mistral models get 9-character ids on the wire; compat toolCallIds sets it by hand", async () => {
  const named = toolCalls([{ name: "read_file", args: {}, id: "call_1" }]);
  const rules = [requireMistralToolCallIds()];
  const mistral = await twoTurns(named, rules, toolTurn, { model: "mistral-large-latest" });
  assertEquals(mistral.status, 200);
  const id = (mistral.sent[2]?.tool_calls as Fields[])[0]?.id;
  assertEquals([/^[A-Za-z0-9]{9}$/.test(String(id)), mistral.sent[3]?.tool_call_id], [true, id]);
  assertEquals(mistral.message.toolCalls[0]?.id, "call_1");
  const byHand = await twoTurns(named, rules, toolTurn, { compat: { toolCallIds: "alnum9" } });
  assertEquals([byHand.status, (byHand.sent[2]?.tool_calls as Fields[])[0]?.id], [200, id]);
  const off = await twoTurns(named, rules, toolTurn, {
    model: "mistral-large-latest",
    compat: { toolCallIds: "any" },
  });
  assertEquals([off.status, off.sent[3]?.tool_call_id], [400, "call_1"]);
});

trafficTest(
  "compat replayReasoning and extraContent false keep those fields off the wire",
  async () => {
    const deepseek = await twoTurns(
      await replay("deepseek/thinking-tool-call.chunks.jsonl"),
      [requireReasoningContent()],
      toolTurn,
      { compat: { replayReasoning: false } },
    );
    assertEquals([deepseek.status, "reasoning_content" in (deepseek.sent[2] ?? {})], [400, false]);
    const gemini = await twoTurns(
      await replay("gemini/thought-signature-tool-call.sse"),
      [requireThoughtSignatures()],
      toolTurn,
      { compat: { extraContent: false } },
    );
    assertEquals(gemini.status, 400);
    assertEquals((gemini.sent[2]?.tool_calls as Fields[])[0], {
      id: "function-call-1",
      type: "function",
      function: { name: "read_file", arguments: '{"path":"notes.md"}' },
    });
  },
);

Deno.test("Ollama: malformed tool-call arguments go back as {} and stay in history", async () => {
  const broken = toolCalls([{ name: "read_file", args: '{"path": "a.txt"', id: "call_x" }]);
  const { status, sent, messages } = await twoTurns(broken, [requireJsonToolArguments()]);
  assertEquals(status, 200);
  assertEquals((sent[2]?.tool_calls as Fields[])[0]?.function, {
    name: "read_file",
    arguments: "{}",
  });
  const kept = messages[1];
  assertEquals(kept?.role === "assistant" && kept.toolCalls[0]?.arguments, '{"path": "a.txt"');
});

async function limitRequest(model: string, extra: Partial<ChatClientOptions> = {}) {
  await using server = await startFakeServer({
    handler: () => text("ok"),
    rules: [refuseMaxTokens()],
  });
  const client = createChatClient({
    baseURL: server.url,
    apiKey: "k",
    model,
    maxRetries: 0,
    ...extra,
  });
  const outcome = await client.complete({
    system: "s",
    messages: [{ role: "user", content: "hi" }],
    maxOutputTokens: 100,
  }).catch((error) => error);
  const raw = server.requests[0]?.raw as Fields;
  return { outcome, limit: [raw.max_tokens, raw.max_completion_tokens] };
}

Deno.test("OpenAI reasoning models get max_completion_tokens, by name or by outputLimitField", async () => {
  for (const model of ["gpt-5-mini", "o3", "o4-mini", "openai/o1", "gpt-5.1"]) {
    assertEquals((await limitRequest(model)).limit, [undefined, 100], model);
  }
  const deployment = await limitRequest("my-deployment");
  assertInstanceOf(deployment.outcome, ChatError);
  assertEquals(
    deployment.outcome.message,
    `The provider rejected the request (400): Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead; set "outputLimitField": "max_completion_tokens" in provider.json`,
  );
  const configured = await limitRequest("my-deployment", {
    compat: { outputLimitField: "max_completion_tokens" },
  });
  assertEquals(configured.limit, [undefined, 100]);
  assertEquals((await limitRequest("gpt-4o")).limit, [100, undefined]);
});
