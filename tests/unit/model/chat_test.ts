import { assertEquals, assertInstanceOf, assertRejects } from "@std/assert";
import { createChatClient } from "../../../src/model/client.ts";
import { ChatError, type ChatRequest } from "../../../src/model/chat_model.ts";
import { startFakeServer } from "../../support/fake_server.ts";
import { drop, httpError, rateLimited, sequence, text, toolCall } from "../../support/scripts.ts";

const REQUEST: ChatRequest = { system: "be brief", messages: [{ role: "user", content: "hi" }] };
const READ_TOOL = {
  name: "read_file",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

/** A client whose retry waits are recorded in `delays` and take no time. */
function client(url: string, maxRetries = 4, delays: number[] = []) {
  const delay = (ms: number) => (delays.push(ms), Promise.resolve());
  return createChatClient({ baseURL: url, apiKey: "k", model: "m", maxRetries, delay });
}

Deno.test("createChatClient() streams the answer and returns it with total tokens", async () => {
  await using server = await startFakeServer({ handler: sequence([text("Hello there, friend.")]) });
  const pieces: string[] = [];
  const reply = await client(server.url).complete(REQUEST, { onText: (t) => pieces.push(t) });
  assertEquals(reply.message, {
    role: "assistant",
    content: "Hello there, friend.",
    toolCalls: [],
  });
  assertEquals(pieces.join(""), "Hello there, friend.");
  assertEquals(pieces.length > 1, true);
  const raw = server.requests[0]?.raw as Record<string, unknown>;
  assertEquals(reply.totalTokens !== undefined && reply.totalTokens > 0, true);
  assertEquals(raw.stream, true);
  assertEquals(raw.stream_options, { include_usage: true });
  assertEquals("tools" in raw, false);
  assertEquals("max_tokens" in raw, false);
  assertEquals(raw.messages, [
    { role: "system", content: "be brief" },
    { role: "user", content: "hi" },
  ]);
});

Deno.test("createChatClient() reassembles streamed tool calls and sends tools and max_tokens", async () => {
  await using server = await startFakeServer({
    handler: sequence([toolCall("read_file", { path: "a.txt" }, { content: "Let me look." })]),
  });
  const reply = await client(server.url).complete({
    ...REQUEST,
    tools: [READ_TOOL],
    maxOutputTokens: 100,
  });
  assertEquals(reply.message.content, "Let me look.");
  assertEquals(reply.message.toolCalls.map(({ name, arguments: args }) => ({ name, args })), [
    { name: "read_file", args: '{"path":"a.txt"}' },
  ]);
  const raw = server.requests[0]?.raw as Record<string, unknown>;
  assertEquals(raw.max_tokens, 100);
  assertEquals((raw.tools as unknown[]).length, 1);
});

Deno.test("createChatClient() retries 429 honouring retry-after, 500s and dropped streams", async () => {
  await using server = await startFakeServer({
    handler: sequence([
      rateLimited(1),
      httpError(500, "boom"),
      drop(text("partial answer that drops"), 3),
      text("finally"),
    ]),
  });
  const retries: { attempt: number; delayMs: number }[] = [];
  const delays: number[] = [];
  const reply = await client(server.url, 4, delays).complete(REQUEST, {
    onRetry: ({ attempt, delayMs }) => retries.push({ attempt, delayMs }),
  });
  assertEquals(reply.message.content, "finally");
  assertEquals(server.requests.map((r) => r.status), [429, 500, 200, 200]);
  assertEquals(retries[0], { attempt: 1, delayMs: 1000 });
  assertEquals(retries.map((r) => r.attempt), [1, 2, 3]);
  assertEquals(delays, retries.map((r) => r.delayMs), "waits exactly what it reports");
});

Deno.test("createChatClient() gives up after maxRetries with the last failure", async () => {
  await using server = await startFakeServer({
    handler: () => httpError(503, "overloaded"),
  });
  const error = await assertRejects(() => client(server.url, 1).complete(REQUEST), ChatError);
  assertEquals([error.kind, error.message], ["server", "The provider failed (503): overloaded"]);
  assertEquals(server.requests.length, 2);
});

Deno.test("createChatClient() does not retry 401 or context overflow", async () => {
  await using server = await startFakeServer({
    contextWindow: 50,
    apiKey: "right",
    handler: () => text("never"),
  });
  const wrongKey = createChatClient({ baseURL: server.url, apiKey: "wrong", model: "m" });
  const auth = await assertRejects(() => wrongKey.complete(REQUEST), ChatError);
  assertEquals(auth.kind, "auth");
  const rightKey = createChatClient({ baseURL: server.url, apiKey: "right", model: "m" });
  const long = { ...REQUEST, messages: [{ role: "user" as const, content: "word ".repeat(200) }] };
  const overflow = await assertRejects(() => rightKey.complete(long), ChatError);
  assertEquals(overflow.kind, "context_overflow");
  assertEquals(server.requests.length, 2);
});

Deno.test("createChatClient() stops streaming on abort and throws an aborted ChatError", async () => {
  await using server = await startFakeServer({
    handler: sequence([text("a slow answer ".repeat(20), { chunkSize: 5, chunkDelayMs: 50 })]),
  });
  const controller = new AbortController();
  const pieces: string[] = [];
  const error = await assertRejects(
    () =>
      client(server.url).complete(REQUEST, {
        signal: controller.signal,
        onText: (t) => {
          pieces.push(t);
          if (pieces.length === 2) controller.abort();
        },
      }),
    ChatError,
  );
  assertInstanceOf(error, ChatError);
  assertEquals([error.kind, pieces.length], ["aborted", 2]);
});

Deno.test("createChatClient() aborts a wait between retries", async () => {
  await using server = await startFakeServer({ handler: () => rateLimited(30) });
  const controller = new AbortController();
  const realWaits = createChatClient({ baseURL: server.url, apiKey: "k", model: "m" });
  const error = await assertRejects(
    () =>
      realWaits.complete(REQUEST, {
        signal: controller.signal,
        onRetry: () => setTimeout(() => controller.abort(), 10),
      }),
    ChatError,
  );
  assertEquals(error.kind, "aborted");
  assertEquals(server.requests.length, 1);
});

Deno.test("createChatClient() joins consecutive user messages so roles alternate", async () => {
  await using server = await startFakeServer({ handler: sequence([text("ok")]) });
  await client(server.url).complete({
    system: "s",
    messages: [
      { role: "user", content: "summary" },
      { role: "user", content: "task one" },
      { role: "assistant", content: "done", toolCalls: [] },
      { role: "user", content: "a" },
      { role: "user", content: "b" },
    ],
  });
  const raw = server.requests[0]?.raw as { messages: unknown[] };
  assertEquals(raw.messages, [
    { role: "system", content: "s" },
    { role: "user", content: "summary\n\ntask one" },
    { role: "assistant", content: "done" },
    { role: "user", content: "a\n\nb" },
  ]);
});

Deno.test("createChatClient() with cacheControl marks the system prompt and the last message", async () => {
  await using server = await startFakeServer({ handler: sequence([text("ok"), text("ok")]) });
  const cached = createChatClient({
    baseURL: server.url,
    apiKey: "k",
    model: "m",
    compat: { cacheControl: true },
  });
  const messages: ChatRequest["messages"] = [
    { role: "user", content: "read it" },
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path":"a"}' }],
    },
    { role: "tool", toolCallId: "c1", content: "the file", isError: false },
  ];
  await cached.complete({ system: "s", messages, tools: [READ_TOOL] });
  await cached.complete({
    system: "s",
    messages: [...messages.slice(0, 2), { ...messages[2]!, content: "" }],
  });
  const mark = { type: "ephemeral" };
  const [first, second] = server.requests.map((request) => request.raw as { messages: unknown[] });
  assertEquals(first?.messages[0], {
    role: "system",
    content: [{ type: "text", text: "s", "cache_control": mark }],
  });
  assertEquals(first?.messages[1], { role: "user", content: "read it" });
  assertEquals(first?.messages[3], {
    role: "tool",
    "tool_call_id": "c1",
    content: [{ type: "text", text: "the file", "cache_control": mark }],
  });
  // An empty text cannot carry a mark (Anthropic rejects empty text parts).
  assertEquals(second?.messages[3], { role: "tool", "tool_call_id": "c1", content: "" });
  assertEquals(server.requests.map((request) => request.status), [200, 200]);
  assertEquals(server.requests[0]?.body?.messages[0]?.content, "s");
});

Deno.test("createChatClient() accepts whole tool calls without index", async () => {
  // Some OpenAI-compatible servers stream whole tool calls without `index`.
  const chunks = [
    { choices: [{ index: 0, delta: { role: "assistant", content: "" } }] },
    {
      choices: [{
        index: 0,
        delta: {
          tool_calls: [{ id: "a", type: "function", function: { name: "f", arguments: "{}" } }],
        },
      }],
    },
    {
      choices: [{
        index: 0,
        delta: {
          tool_calls: [{ id: "b", type: "function", function: { name: "g", arguments: '{"x"' } }],
        },
      }],
    },
    { choices: [{ index: 0, delta: { tool_calls: [{ function: { arguments: ":1}" } }] } }] },
    { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
    { choices: [], usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } },
  ];
  const body = chunks.map((chunk) =>
    `data: ${
      JSON.stringify({
        id: "c",
        object: "chat.completion.chunk",
        created: 0,
        model: "m",
        ...chunk,
      })
    }\n\n`
  ).join("") + "data: [DONE]\n\n";
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response(body, { headers: { "content-type": "text/event-stream" } }),
  );
  const reply = await client(`http://127.0.0.1:${server.addr.port}/v1`, 0).complete(REQUEST);
  assertEquals(reply, {
    message: {
      role: "assistant",
      content: "",
      toolCalls: [
        { id: "a", name: "f", arguments: "{}" },
        { id: "b", name: "g", arguments: '{"x":1}' },
      ],
    },
    totalTokens: 8,
    usage: { promptTokens: 5, completionTokens: 3, cachedTokens: 0 },
    finishReason: "tool_calls",
  });
});
