import { assertEquals } from "@std/assert";
import type { Message, ToolCall } from "../../../src/core/messages.ts";
import { findCutPoint } from "../../../src/context/cut_point.ts";

/** A text of about `tokens` estimated tokens: short words, one estimated token per 1.1. */
function text(tokens: number): string {
  return Array(Math.round(tokens / 1.1)).fill("ab").join(" ");
}

function user(tokens: number): Message {
  return { role: "user", content: text(tokens) };
}

function reply(tokens: number): Message {
  return { role: "assistant", content: text(tokens), toolCalls: [] };
}

function call(id: string): ToolCall {
  return { id, name: "read_file", arguments: '{"path":"f.txt"}' };
}

function calls(...ids: string[]): Message {
  return { role: "assistant", content: "", toolCalls: ids.map(call) };
}

function result(id: string, tokens: number): Message {
  return { role: "tool", toolCallId: id, content: text(tokens), isError: false };
}

// Estimated sizes: user(n)/reply(n) ≈ n + 5; result("cN", n) ≈ n + 8; calls(1 id) ≈ 20.
const STRADDLING: Message[] = [
  user(10),
  calls("c1", "c2", "c3"),
  result("c1", 100),
  result("c2", 100),
  result("c3", 100),
  reply(100),
  user(100),
];

Deno.test("findCutPoint() moves a cut inside a tool-call group past its results", () => {
  // Walking back reaches result c3 (about 320 tokens kept): c1..c3 go with their call.
  assertEquals(findCutPoint(STRADDLING, 0, { keepRecentTokens: 250 }), {
    index: 5,
    splitTurn: true,
  });
  assertEquals(findCutPoint(STRADDLING, 0, { keepRecentTokens: 400 }), {
    index: 5,
    splitTurn: true,
  });
});

Deno.test("findCutPoint() keeps a whole tool-call group when the walk reaches its call", () => {
  assertEquals(findCutPoint(STRADDLING, 0, { keepRecentTokens: 540 }), {
    index: 1,
    splitTurn: true,
  });
});

Deno.test("findCutPoint() cuts one long task at an assistant message (split turn)", () => {
  const history: Message[] = [user(10)];
  for (let step = 1; step <= 60; step++) {
    history.push(calls(`c${step}`), result(`c${step}`, 100));
  }
  // About 125 tokens per step: 8 steps reach 1000 at step 53's result (index 106); the cut
  // moves forward to step 54's assistant message.
  const cut = findCutPoint(history, 0, { keepRecentTokens: 1000 });
  assertEquals(cut, { index: 107, splitTurn: true });
  assertEquals(history[cut.index]?.role, "assistant");
});

Deno.test("findCutPoint() cuts at a user message without splitting a turn", () => {
  const history = [user(10), reply(100), user(100), reply(100)];
  assertEquals(findCutPoint(history, 0, { keepRecentTokens: 150 }), {
    index: 2,
    splitTurn: false,
  });
});

Deno.test("findCutPoint() moves back to the call when only its results follow", () => {
  const history = [user(10), calls("c1", "c2"), result("c1", 1000), result("c2", 1000)];
  assertEquals(findCutPoint(history, 0, { keepRecentTokens: 500 }), {
    index: 1,
    splitTurn: true,
  });
});

Deno.test("findCutPoint() reports nothing to cut when the recent part is small", () => {
  const history = [user(10), reply(10), user(10), reply(10), user(10), reply(10)];
  assertEquals(findCutPoint(history, 0, { keepRecentTokens: 1000 }), {
    index: 0,
    splitTurn: false,
  });
  assertEquals(findCutPoint(history, 4, { keepRecentTokens: 1000 }), {
    index: 4,
    splitTurn: false,
  });
  assertEquals(findCutPoint(history, 5, { keepRecentTokens: 0 }), {
    index: 5,
    splitTurn: false,
  });
  assertEquals(findCutPoint([], 0, { keepRecentTokens: 0 }), { index: 0, splitTurn: false });
});

Deno.test("findCutPoint() never cuts before startIndex", () => {
  const history = [user(100), reply(100), user(100), reply(100), user(100), reply(100)];
  assertEquals(findCutPoint(history, 2, { keepRecentTokens: 150 }), {
    index: 4,
    splitTurn: false,
  });
  assertEquals(findCutPoint(history, 2, { keepRecentTokens: 0 }), {
    index: 5,
    splitTurn: true,
  });
});

Deno.test("findCutPoint() estimates long tool outputs as the working memory shows them", () => {
  const history = [user(10), calls("c1"), result("c1", 10_000), reply(10)];
  assertEquals(findCutPoint(history, 0, { keepRecentTokens: 3000 }), {
    index: 3,
    splitTurn: true,
  });
  assertEquals(findCutPoint(history, 0, { keepRecentTokens: 3000, toolOutputLimit: 8000 }), {
    index: 0,
    splitTurn: false,
  });
});
