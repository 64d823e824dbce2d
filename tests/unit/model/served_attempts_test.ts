/**
 * Issue 34.3 in the parts: the chat client reports what each failed attempt served and asks
 * before each retry; the meter counts both; an estimate anchored on a usage snapshot is not
 * used for a request that carries another system prompt or other tools.
 *
 * @module
 */
import { assert, assertEquals, assertRejects } from "@std/assert";
import { createChatClient } from "../../../src/model/client.ts";
import { ChatError, type ChatRequest, type ServedAttempt } from "../../../src/model/chat_model.ts";
import { Spending } from "../../../src/context/spending.ts";
import {
  estimateContextTokens,
  estimateRequestTokens,
  estimateTextTokens,
  overheadKey,
  type RequestOverhead,
} from "../../../src/context/tokens.ts";
import { Session } from "../../../src/session/session.ts";
import { startFakeServer } from "../../support/fake_server.ts";
import { drop, httpError, rateLimited, sequence, text } from "../../support/scripts.ts";

const REQUEST: ChatRequest = { system: "be brief", messages: [{ role: "user", content: "hi" }] };

function client(url: string) {
  return createChatClient({
    baseURL: url,
    apiKey: "k",
    model: "m",
    maxRetries: 4,
    delay: () => Promise.resolve(),
  });
}

Deno.test("createChatClient() reports what a dropped stream served, and nothing for 429 or 500", async () => {
  await using server = await startFakeServer({
    handler: sequence([
      rateLimited(0),
      httpError(500, "boom"),
      drop(text("partial answer", { chunkSize: 4 }), 3),
      text("finally"),
    ]),
  });
  const served: ServedAttempt[] = [];
  const reply = await client(server.url).complete(REQUEST, {
    onServed: (attempt) => served.push(attempt),
  });
  assertEquals(reply.message.content, "finally");
  assertEquals(served, [{ received: "partial " }]);
});

Deno.test("createChatClient() reports an interrupted stream as served", async () => {
  await using server = await startFakeServer({
    handler: sequence([text("a slow answer ".repeat(20), { chunkSize: 5, chunkDelayMs: 50 })]),
  });
  const controller = new AbortController();
  const served: ServedAttempt[] = [];
  const error = await assertRejects(
    () =>
      client(server.url).complete(REQUEST, {
        signal: controller.signal,
        onText: () => controller.abort(),
        onServed: (attempt) => served.push(attempt),
      }),
    ChatError,
  );
  assertEquals([error.kind, served], ["aborted", [{ received: "a slo" }]]);
});

Deno.test("createChatClient() asks before each retry; a refusal sends nothing more and throws 'budget'", async () => {
  await using server = await startFakeServer({
    handler: () => drop(text("partial answer"), 2),
  });
  const asked: number[] = [];
  const error = await assertRejects(
    () =>
      client(server.url).complete(REQUEST, {
        admitRetry: () => {
          asked.push(server.requests.length);
          return asked.length === 2 ? "Budget reached: no more" : undefined;
        },
      }),
    ChatError,
  );
  assertEquals([error.kind, error.message], ["budget", "Budget reached: no more"]);
  assertEquals(asked, [1, 2]);
  assertEquals(server.requests.length, 2);
});

Deno.test("Spending.meter() counts each served attempt before the retry is admitted", async () => {
  await using server = await startFakeServer({
    handler: sequence([drop(text("partial answer", { chunkSize: 4 }), 3), text("whole")]),
  });
  const spending = new Spending({ limits: { tokens: 1_000_000 } });
  const spentAtRetry: number[] = [];
  const model = spending.meter(client(server.url), "step");
  await model.complete(REQUEST, {
    admitRetry: () => {
      spentAtRetry.push(spending.report().session.promptTokens);
      return undefined;
    },
  });
  const { session } = spending.report();
  const prompt = estimateRequestTokens(REQUEST);
  assertEquals(spentAtRetry, [prompt]);
  // The dropped attempt at the estimate, the whole reply at the provider's usage.
  assertEquals([session.requests, session.steps, session.estimated], [2, 1, 1]);
  assertEquals(session.promptTokens, prompt + server.requests[1]!.promptTokens);
  assert(session.completionTokens > estimateTextTokens("partial "));
});

Deno.test("Spending.meter() admits each retry of a summary on its estimate", async () => {
  await using server = await startFakeServer({
    handler: sequence([drop(text("partial summary"), 3), text("never sent")]),
  });
  const prompt = estimateRequestTokens(REQUEST);
  // Room for one attempt with its reply allowance, not for a second.
  const spending = new Spending({ limits: { tokens: prompt + 4096 + prompt } });
  const summaries = spending.meter(client(server.url), "summary");
  const error = await assertRejects(() => summaries.complete(REQUEST), ChatError);
  assertEquals(error.kind, "budget");
  assert(error.message.startsWith("Budget reached: this session has spent"), error.message);
  assertEquals(server.requests.length, 1);
  assertEquals(spending.report().session.requests, 1);
});

Deno.test("estimateContextTokens() estimates whole when the snapshot measured another system prompt or tools", () => {
  const overhead: RequestOverhead = { system: "be brief", tools: [] };
  const wider: RequestOverhead = {
    system: "be brief",
    tools: [{ name: "mcp__x__y", description: "d ".repeat(500), parameters: {} }],
  };
  const session = new Session();
  session.append({ role: "user", content: "hi" });
  session.append({ role: "assistant", content: "hello", toolCalls: [] });
  const memory = session.recent();
  const whole = (of: typeof overhead) => estimateRequestTokens({ ...of, messages: memory });
  session.recordUsage({ totalTokens: 7, historyLength: 2, overhead: overheadKey(overhead) });
  assertEquals(estimateContextTokens(session, memory, overhead), 7);
  assertEquals(estimateContextTokens(session, memory, wider), whole(wider));
  // A snapshot from a file written before the key existed is trusted as before.
  session.recordUsage({ totalTokens: 7, historyLength: 2 });
  assertEquals(estimateContextTokens(session, memory, wider), 7);
  assertEquals(overheadKey(wider), overheadKey({ ...wider }));
  assert(overheadKey(wider) !== overheadKey(overhead));
});
