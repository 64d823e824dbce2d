/**
 * The bench's prompt-cache measure: each request as [tools, message 1, …], cacheable up to the
 * longest leading run shared with an earlier accepted request, by OpenAI's rule (nothing below
 * 1,024 tokens, then whole 128-token steps).
 */
import { assert, assertAlmostEquals, assertEquals } from "@std/assert";
import { cacheableTokens, cacheFigures, requestElements } from "../../../bench/prefix_cache.ts";
import type { RecordedRequest } from "../../support/fake_server.ts";
import { countPromptTokens, countTextTokens } from "../../support/tokens.ts";

const TOOLS = [{
  type: "function",
  function: {
    name: "read_file",
    // Long enough that the shared prefixes below pass OpenAI's 1,024-token minimum.
    description: "Reads one file of the workspace and returns its text. ".repeat(120),
    parameters: { type: "object" },
  },
}];

function recorded(raw: Record<string, unknown>, status = 200): RecordedRequest {
  return {
    method: "POST",
    path: "/v1/chat/completions",
    headers: { authorization: null, contentType: null, accept: null },
    raw,
    body: undefined,
    promptTokens: 0,
    status,
    rejection: undefined,
    clientAborted: false,
  };
}

const system = { role: "system", content: "You are a test." };
const task = { role: "user", content: "Read the notes and tell me what they say, please." };
const call = {
  role: "assistant",
  content: null,
  "tool_calls": [{
    id: "call_1",
    type: "function",
    function: { name: "read_file", arguments: '{"path":"notes.txt"}' },
  }],
};
const result = {
  role: "tool",
  "tool_call_id": "call_1",
  content: "The notes say hello. ".repeat(40),
};

Deno.test("requestElements() splits a request into tools and messages whose tokens add up to the server's count", () => {
  const raw = { model: "m", tools: TOOLS, messages: [system, task, call, result] };
  const elements = requestElements(raw);
  assertEquals(elements.keys.length, 5);
  assertEquals(elements.keys[0], JSON.stringify(TOOLS));
  assertEquals(elements.tokens[0], countTextTokens(JSON.stringify(TOOLS)));
  assertEquals(
    elements.tokens.reduce((sum, tokens) => sum + tokens, 0),
    countPromptTokens({ tools: TOOLS, messages: [system, task, call, result] }),
  );
});

Deno.test("cacheableTokens() caches nothing below 1,024 tokens, then whole 128-token steps", () => {
  assertEquals([0, 1023, 1024, 1151, 1152, 1300, 5000].map(cacheableTokens), [
    0,
    0,
    1024,
    1024,
    1152,
    1280,
    4992,
  ]);
});

Deno.test("cacheFigures() counts the longest leading run shared with any earlier accepted request, and new content", () => {
  const first = { model: "m", tools: TOOLS, messages: [system, task] };
  const second = { model: "m", tools: TOOLS, messages: [system, task, call, result] };
  // Same start, but the tool output is re-worded: only [tools, system, task, call] is shared.
  const reworded = { ...result, content: "The notes say hello." };
  const third = { model: "m", tools: TOOLS, messages: [system, task, call, reworded] };
  const rejected = { model: "m", tools: TOOLS, messages: [system, task, call, reworded, task] };
  const figures = cacheFigures([
    recorded(first),
    recorded(second),
    recorded(rejected, 400),
    recorded(third),
  ]);
  const tokens = (raw: Record<string, unknown>) =>
    requestElements(raw).tokens.reduce((sum, value) => sum + value, 0);
  const head = tokens(first);
  const withCall = head + requestElements(second).tokens[3]!;
  assertEquals(figures.requests, 3);
  assertEquals(figures.inputTokens, tokens(first) + tokens(second) + tokens(third));
  assert(head > 1024, `the shared head is ${head} tokens`);
  const cached = cacheableTokens(head) + cacheableTokens(withCall);
  assertEquals(figures.cachedTokens, cached);
  assert(cached < head + withCall, "the 128-token steps leave some shared tokens uncached");
  // New content: all of the first request, the call and result, the re-worded result.
  const elements = requestElements(third).tokens;
  assertEquals(
    figures.firstSeenTokens,
    head + requestElements(second).tokens[3]! + requestElements(second).tokens[4]! +
      elements[4]!,
  );
  assertAlmostEquals(figures.cacheableShare, cached / figures.inputTokens);
  assertAlmostEquals(
    figures.weightedCost,
    figures.inputTokens - figures.cachedTokens + 0.1 * figures.cachedTokens,
  );
});
