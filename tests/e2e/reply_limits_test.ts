/**
 * Hostile or broken replies, through the real HTTP path and stream reader: every body is read
 * within a cap (error body, answer text, one stream line, tool-call arguments, kept provider
 * values) and a timer, and no provider text can pin the main thread beyond Ctrl+C.
 */
import { assert, assertEquals, assertInstanceOf, assertMatch } from "@std/assert";
import { createChatClient } from "../../src/model/client.ts";
import { ChatError, type ChatOptions } from "../../src/model/chat_model.ts";
import type { ReplyLimits } from "../../src/model/limits.ts";
import { type RawReply, type Reply, startFakeServer } from "../support/fake_server.ts";
import { createTempProject } from "../support/project.ts";
import { sequence, text } from "../support/scripts.ts";
import { ENV, KEY, provider } from "../support/sessions.ts";

const MIB = 1024 * 1024;

/** Sends one request against `replies`; the outcome, the time it took and what the server saw. */
async function ask(
  replies: Reply[],
  options: { limits?: Partial<ReplyLimits>; chat?: ChatOptions; maxRetries?: number } = {},
) {
  await using server = await startFakeServer({ handler: sequence(replies) });
  const client = createChatClient({
    baseURL: server.url,
    apiKey: "k",
    model: "m",
    maxRetries: options.maxRetries ?? 0,
    delay: () => Promise.resolve(),
    ...(options.limits ? { limits: options.limits } : {}),
  });
  const started = performance.now();
  const outcome = await client.complete(
    { system: "s", messages: [{ role: "user", content: "hi" }] },
    options.chat,
  ).catch((error: unknown) => error);
  const ms = performance.now() - started;
  // Let the server notice a cancelled body before its records are read.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { outcome, ms, requests: [...server.requests] };
}

function body(status: number, contentType: string, parts: string[], chunkDelayMs = 0): RawReply {
  return { type: "raw", status, contentType, parts, chunkDelayMs };
}

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${
    JSON.stringify({
      id: "c",
      object: "chat.completion.chunk",
      created: 1,
      model: "m",
      choices: [{ index: 0, delta, finish_reason: finish }],
    })
  }\n\n`;
}

Deno.test("18.6 an error repeating an overflow phrase is classified within a second", async () => {
  // The Gemini wording's old pattern `input token count.* exceeds ...` backtracked
  // quadratically on such a message: 400 KB took seconds, 1.5 MB minutes, beyond Ctrl+C.
  const message = "input token count ".repeat(400_000 / 18);
  const cases: Reply[] = [
    body(400, "application/json", [JSON.stringify({ error: { message } })]),
    body(200, "text/event-stream", [`data: ${JSON.stringify({ error: { message } })}\n\n`]),
  ];
  for (const reply of cases) {
    const abort = AbortSignal.timeout(300);
    const { outcome, ms } = await ask([reply], { chat: { signal: abort } });
    assert(ms < 1000, `settled after ${ms.toFixed(0)} ms`);
    assertInstanceOf(outcome, ChatError);
    assertEquals(outcome.kind, "bad_request");
    assert(outcome.message.length < 1100, `${outcome.message.length} characters`);
    assertMatch(
      outcome.message,
      /^The provider (rejected the request \(400\)|reported an error mid-reply): .*input token count input token count/,
    );
  }
});

Deno.test("18.7 an error body is read up to 64 KB and the rest is never fetched", async () => {
  const parts = Array.from({ length: 800 }, () => "x".repeat(64 * 1024));
  const { outcome, ms, requests } = await ask([body(500, "text/plain", parts)]);
  assertInstanceOf(outcome, ChatError);
  assertEquals(outcome.kind, "server");
  assertMatch(outcome.message, /^The provider failed \(500\): x{1000}…$/);
  assert(ms < 2000, `${ms.toFixed(0)} ms`);
  assertEquals(requests[0]?.clientAborted, true);
});

Deno.test("18.7 an error body that trickles is read for a bounded time", async () => {
  const drip = Array.from({ length: 100 }, (_, i) => i === 0 ? '{"error": "slow' : ".");
  const { outcome, ms } = await ask([body(503, "application/json", drip, 50)], {
    limits: { errorBodyMs: 300 },
  });
  assertInstanceOf(outcome, ChatError);
  assertMatch(
    outcome.message,
    /^The provider failed \(503\): \{"error": "slow\.+ … \(the rest was not read\)$/,
  );
  assert(ms < 1500, `${ms.toFixed(0)} ms`);
});

Deno.test("18.7 an answer that never ends stops at 8M characters with one line", async () => {
  const piece = "y".repeat(64 * 1024);
  const parts = Array.from({ length: 8 * 16 + 4 }, () => chunk({ content: piece }));
  const { outcome, requests } = await ask([body(200, "text/event-stream", parts)], {
    maxRetries: 2,
  });
  assertInstanceOf(outcome, ChatError);
  assertEquals([outcome.kind, outcome.partialOutput], ["limit", true]);
  assertEquals(
    outcome.message,
    'The reply passed 8M characters of text and reasoning (the limit); the stream was stopped; set "maxOutputTokens" in provider.json to bound replies',
  );
  assertEquals(requests.length, 1, "a reply past a cap is not retried");
});

Deno.test("18.7 one stream line without an end stops at 32M characters", async () => {
  const parts = [
    'data: {"choices":[{"index":0,"delta":{"content":"',
    ...Array.from({ length: 34 }, () => "z".repeat(MIB)),
  ];
  const { outcome } = await ask([body(200, "text/event-stream", parts)]);
  assertInstanceOf(outcome, ChatError);
  assertEquals([outcome.kind, outcome.message], [
    "limit",
    "Invalid reply from the provider: one line of the stream passed 32M characters (the limit); the stream was stopped",
  ]);
});

Deno.test("18.7 tool-call arguments stop at 16M characters", async () => {
  const start = chunk({
    tool_calls: [{
      index: 0,
      id: "call_1",
      type: "function",
      function: { name: "write_file", arguments: "" },
    }],
  });
  const more = chunk({ tool_calls: [{ index: 0, function: { arguments: "a".repeat(MIB) } }] });
  const parts = [start, ...Array.from({ length: 17 }, () => more)];
  const { outcome } = await ask([body(200, "text/event-stream", parts)]);
  assertInstanceOf(outcome, ChatError);
  assertEquals([outcome.kind, outcome.message], [
    "limit",
    'The arguments of tool call "write_file" passed 16M characters (the limit); the stream was stopped',
  ]);
});

function extraContentCall(extra: unknown): Reply {
  const call = {
    index: 0,
    id: "call_1",
    type: "function",
    function: { name: "read_file", arguments: '{"path":"a"}' },
    "extra_content": extra,
  };
  return body(200, "text/event-stream", [
    chunk({ tool_calls: [call] }, "tool_calls"),
    "data: [DONE]\n\n",
  ]);
}

Deno.test("18.11 extra_content nested 6000 deep or over 256K is refused, never kept", async () => {
  const deep = JSON.parse('{"a":'.repeat(6000) + "1" + "}".repeat(6000));
  for (const extra of [deep, { google: { thought_signature: "s".repeat(300 * 1024) } }]) {
    const { outcome } = await ask([extraContentCall(extra)]);
    assertInstanceOf(outcome, ChatError);
    assertEquals([outcome.kind, outcome.message], [
      "server",
      "Invalid reply from the provider: a tool call's extra_content nests deeper than 16 levels or passes 256K characters",
    ]);
  }
  const fine = await ask([extraContentCall({ google: { thought_signature: "CrICAdHt" } })]);
  assertEquals(
    fine.outcome && typeof fine.outcome === "object" && "message" in fine.outcome &&
      (fine.outcome.message as { toolCalls: unknown[] }).toolCalls,
    [{
      id: "call_1",
      name: "read_file",
      arguments: '{"path":"a"}',
      extra: { extra_content: { google: { thought_signature: "CrICAdHt" } } },
    }],
  );
});

Deno.test("18.11 powercode -p survives a reply whose extra_content is nested 6000 deep", async () => {
  const deep = JSON.parse('{"a":'.repeat(6000) + "1" + "}".repeat(6000));
  await using server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    handler: sequence([extraContentCall(deep), text("Fine.")]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const result = await project.run(["-p", "hi"], { env: ENV });
  assertEquals([result.code, result.stdout], [0, "Fine.\n"], result.stderr);
  assertMatch(
    result.stderr,
    /^↻ Invalid reply from the provider: a tool call's…; retrying in/m,
  );
  const [first, retry] = server.requests.map((request) => request.body?.messages);
  assertEquals(retry, first, "the retry sends the same messages; nothing of the refused reply");
});
