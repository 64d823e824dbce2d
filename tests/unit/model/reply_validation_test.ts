/**
 * A hostile or buggy provider: every field of a streamed reply is checked before it enters
 * the session; a bad one is a clear provider error for that step, and the session stays
 * valid and resumable.
 *
 * @module
 */
import { assertEquals, assertMatch, assertRejects } from "@std/assert";
import { createChatClient } from "../../../src/model/client.ts";
import { ChatError, type ChatRequest } from "../../../src/model/chat_model.ts";
import { startFakeServer } from "../../support/fake_server.ts";
import type { RawReply } from "../../support/replies.ts";
import { sseReply } from "../../support/scripts.ts";

const REQUEST: ChatRequest = { system: "s", messages: [{ role: "user", content: "hi" }] };

function toolPiece(piece: Record<string, unknown>) {
  return { choices: [{ index: 0, delta: { tool_calls: [piece] } }] };
}

const STOP = { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] };

async function failure(reply: RawReply): Promise<ChatError> {
  await using server = await startFakeServer({ handler: () => reply });
  const client = createChatClient({ baseURL: server.url, apiKey: "k", model: "m", maxRetries: 0 });
  return await assertRejects(() => client.complete(REQUEST), ChatError);
}

Deno.test("a numeric tool-call id is an invalid reply, never stored", async () => {
  const error = await failure(sseReply([
    toolPiece({ index: 0, id: 42, function: { name: "bash", arguments: "{}" } }),
    STOP,
  ]));
  assertEquals(
    [error.kind, error.message],
    ["server", "Invalid reply from the provider: a tool-call id is 42, not a string"],
  );
});

Deno.test("a huge tool-call index is refused at once instead of freezing", async () => {
  const start = performance.now();
  const error = await failure(sseReply([
    toolPiece({ index: 4294967294, id: "a", function: { name: "bash", arguments: "{}" } }),
    STOP,
  ]));
  assertEquals(
    error.message,
    "Invalid reply from the provider: a tool-call index is 4294967294 (at most 128 calls)",
  );
  assertEquals(performance.now() - start < 5000, true);
});

Deno.test("usage.total_tokens null is ignored; a negative or fractional count is invalid", async () => {
  await using server = await startFakeServer({
    handler: () =>
      sseReply([
        { choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] },
        { choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: null } },
      ]),
  });
  const client = createChatClient({ baseURL: server.url, apiKey: "k", model: "m", maxRetries: 0 });
  const reply = await client.complete(REQUEST);
  assertEquals([reply.message.content, reply.totalTokens], ["ok", undefined]);
  const error = await failure(sseReply([
    { choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] },
    { choices: [], usage: { total_tokens: -3 } },
  ]));
  assertEquals(
    error.message,
    "Invalid reply from the provider: usage.total_tokens is -3, not a token count",
  );
});

Deno.test("a stream that stops after a usage chunk without a finish is incomplete", async () => {
  const error = await failure(sseReply([
    { choices: [{ index: 0, delta: { content: "half an ans" } }] },
    { choices: [], usage: { total_tokens: 9 } },
  ]));
  assertEquals([error.kind, error.message], ["server", "The connection dropped mid-reply"]);
});

Deno.test("a malformed chunk is an invalid reply, not an unreachable server", async () => {
  const error = await failure(sseReply([
    { choices: [{ index: 0, delta: { content: "a" } }] },
    "{not json",
  ]));
  assertEquals(
    [error.kind, error.message],
    ["server", "Invalid reply from the provider: a streamed chunk is not valid JSON"],
  );
});

Deno.test("a tool-call id repeated within one reply is replaced, so every result pairs with one call", async () => {
  await using server = await startFakeServer({
    handler: () =>
      sseReply([
        toolPiece({ index: 0, id: "dup", function: { name: "bash", arguments: "{}" } }),
        toolPiece({ index: 1, id: "dup", function: { name: "read_file", arguments: "{}" } }),
        STOP,
      ]),
  });
  const client = createChatClient({ baseURL: server.url, apiKey: "k", model: "m", maxRetries: 0 });
  const { message } = await client.complete(REQUEST);
  const [first, second] = message.toolCalls;
  assertEquals([first?.id, first?.name, second?.name], ["dup", "bash", "read_file"]);
  assertMatch(second?.id ?? "", /^[A-Za-z0-9]{9}$/);
});
