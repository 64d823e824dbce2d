import { assertEquals } from "@std/assert";
import type { Message, ToolDefinition } from "../src/messages.ts";
import { Session } from "../src/session/session.ts";
import {
  estimateContextTokens,
  estimateMessageTokens,
  estimateRequestTokens,
  estimateTextTokens,
} from "../src/context/tokens.ts";

const READ_CALL: Message = {
  role: "assistant",
  content: "",
  toolCalls: [{ id: "call_1", name: "read_file", arguments: '{"path":"notes.md"}' }],
};
const TOOLS: ToolDefinition[] = [
  { name: "read_file", description: "Read a file", parameters: { type: "object" } },
];
const OVERHEAD = { system: "You are powercode.", tools: TOOLS };

function sessionOf(messages: Message[]): Session {
  const session = new Session();
  for (const message of messages) session.append(message);
  return session;
}

Deno.test("estimateTextTokens() rounds UTF-8 bytes / 4 up", () => {
  assertEquals(
    ["", "abcd", "abcde", "é", "日本語", "😀", "x".repeat(4000)].map(estimateTextTokens),
    [0, 1, 2, 1, 3, 1, 1000],
  );
});

Deno.test("estimateMessageTokens() counts content, tool call id, name and arguments", () => {
  assertEquals(estimateMessageTokens({ role: "user", content: "x".repeat(400) }), 4 + 100);
  // 4 overhead + 3 per call + "call_1" 2 + "read_file" 3 + arguments (19 bytes) 5
  assertEquals(estimateMessageTokens(READ_CALL), 17);
  assertEquals(
    estimateMessageTokens({ role: "tool", toolCallId: "call_1", content: "x".repeat(400) }),
    4 + 2 + 100,
  );
});

Deno.test("estimateMessageTokens() counts a long tool output as the part the memory shows", () => {
  const message: Message = { role: "tool", toolCallId: "call_1", content: "x".repeat(40_000) };
  assertEquals(estimateMessageTokens(message), 4 + 2 + 10_000);
  // head 4000 + tail 4000 characters + 12 for the marker
  assertEquals(estimateMessageTokens(message, { toolOutputLimit: 8000 }), 4 + 2 + 2000 + 12);
});

Deno.test("estimateRequestTokens() includes the system prompt and the tool definitions", () => {
  const messages: Message[] = [{ role: "user", content: "hi" }];
  // 3 request + 4 system overhead + 5 system + 5 user + 21 tools JSON (81 bytes)
  assertEquals(estimateRequestTokens({ ...OVERHEAD, messages }), 38);
  assertEquals(estimateRequestTokens({ ...OVERHEAD, tools: [], messages }), 17);
});

Deno.test("estimateContextTokens() adds later messages to the last usage", () => {
  const session = sessionOf([{ role: "user", content: "read notes" }, READ_CALL]);
  session.recordUsage({ totalTokens: 5000, historyLength: 2 });
  session.append({ role: "tool", toolCallId: "call_1", content: "x".repeat(400) });
  const memory = [...session.history];
  assertEquals(estimateContextTokens(session, memory, OVERHEAD), 5000 + 106);
});

Deno.test("estimateContextTokens() estimates the whole request without usage", () => {
  const session = sessionOf([{ role: "user", content: "hi" }]);
  assertEquals(estimateContextTokens(session, session.history, OVERHEAD), 38);
});

Deno.test("estimateContextTokens() ignores usage that does not fit the history", () => {
  const session = sessionOf([{ role: "user", content: "hi" }]);
  session.recordUsage({ totalTokens: 5000, historyLength: 3 });
  assertEquals(estimateContextTokens(session, session.history, OVERHEAD), 38);
  session.recordUsage({ totalTokens: 0, historyLength: 1 });
  assertEquals(estimateContextTokens(session, session.history, OVERHEAD), 38);
});

Deno.test("estimateContextTokens() ignores usage from before the last compaction", () => {
  const history: Message[] = [
    { role: "user", content: "first" },
    { role: "assistant", content: "done", toolCalls: [] },
    { role: "user", content: "hi" },
  ];
  const session = Session.fromRecords([
    ...history.map((message) => ({ type: "message" as const, message })),
    {
      type: "compaction",
      state: { summary: "s", compactedUntil: 2 },
      tokensBefore: 9,
      tokensAfter: 1,
    },
    { type: "usage", usage: { totalTokens: 5000, historyLength: 1 } },
  ]);
  const memory = session.recent();
  assertEquals(estimateContextTokens(session, memory, OVERHEAD), 38);
});
