import { assert, assertEquals } from "@std/assert";
import type { Message, ToolDefinition } from "../../../src/core/messages.ts";
import { Session } from "../../../src/session/session.ts";
import {
  estimateContextTokens,
  estimateMessageTokens,
  estimatePrefixTokens,
  estimateRequestTokens,
  estimateTextTokens,
} from "../../../src/context/tokens.ts";
import { createTools } from "../../../src/tools/mod.ts";
import { ToolSet } from "../../../src/tools/tool_set.ts";
import { factProseText } from "../../support/facts.ts";
import { countTextTokens } from "../../support/tokens.ts";

const READ_CALL: Message = {
  role: "assistant",
  content: "",
  toolCalls: [{ id: "call_1", name: "read_file", arguments: '{"path":"notes.md"}' }],
};
const TOOLS: ToolDefinition[] = [
  { name: "read_file", description: "Read a file", parameters: { type: "object" } },
];
const OVERHEAD = { system: "You are powercode.", tools: TOOLS };
const text = estimateTextTokens;

function sessionOf(messages: Message[]): Session {
  const session = new Session();
  for (const message of messages) session.append(message);
  return session;
}

/** Estimate / real (o200k) token count of `sample`. */
function ratio(sample: string): number {
  return estimateTextTokens(sample) / countTextTokens(sample);
}

async function toolDefinitionsJson(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "powercode_tokens_" });
  try {
    const { tools } = await createTools(dir, {
      unsandboxedBash: false,
      probe: () => Promise.resolve(false),
    });
    const wire = new ToolSet(tools).definitions().map((definition) => ({
      type: "function",
      function: definition,
    }));
    return JSON.stringify(wire);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("estimateTextTokens() counts words, digit groups, symbol runs and whitespace", () => {
  // Each figure is the pieces times 1.1, rounded up.
  assertEquals(text(""), 0);
  assertEquals(text("hello world"), 3); // "hello", " world"
  assertEquals(text("estimateContextTokens()"), 5); // "estimate", "Context", "Tokens", "()"
  assertEquals(text("1234567"), 4); // "123", "456", "7"
  assertEquals(text("x = 1;\n"), 7); // "x", " =", " ", "1", ";", "\n"
  assertEquals(text("日本語"), 3); // 0.75 per CJK character
  assertEquals(text("😀"), 1); // one surrogate pair, one character
  assertEquals(text("└──"), 5); // 1.25 per other non-ASCII symbol (box drawing, arrows, math)
  assertEquals(text("internationalization"), 5); // 20 letters: one token and 3 more
});

Deno.test("estimateTextTokens() stays within 1.0–1.25 of a real BPE count on ordinary text", async () => {
  const samples = {
    prose: factProseText(3, 6000),
    code: await Deno.readTextFile(new URL("../../../src/context/compactor.ts", import.meta.url)),
    markdown: await Deno.readTextFile(new URL("../../../README.md", import.meta.url)),
    "tool definitions": await toolDefinitionsJson(),
  };
  for (const [name, sample] of Object.entries(samples)) {
    const value = ratio(sample);
    assert(value >= 1 && value < 1.25, `${name}: estimate / real = ${value.toFixed(3)}`);
  }
  // Why not bytes / 4: it overshoots English prose by more than a third.
  const bytes = new TextEncoder().encode(samples.prose).length;
  assert(bytes / 4 / countTextTokens(samples.prose) > 1.3, "the prose sample is not typical");
});

Deno.test("estimateTextTokens() under-counts random strings by less than a third", () => {
  const hashes = Array.from({ length: 200 }, (_, i) => ((i * 2654435761) >>> 0).toString(36));
  const value = ratio(hashes.join(""));
  assert(value > 0.67, `random: estimate / real = ${value.toFixed(3)}`);
});

Deno.test("estimateMessageTokens() counts content, tool call id, name and arguments", () => {
  const content = "x".repeat(400);
  assertEquals(estimateMessageTokens({ role: "user", content }), 4 + text(content));
  // 4 overhead + 3 per call + id + name + arguments
  assertEquals(
    estimateMessageTokens(READ_CALL),
    4 + 3 + text("call_1") + text("read_file") + text('{"path":"notes.md"}'),
  );
  assertEquals(
    estimateMessageTokens({ role: "tool", toolCallId: "call_1", content, isError: false }),
    4 + text("call_1") + text(content),
  );
});

Deno.test("estimateMessageTokens() counts a long tool output as the part the memory shows", () => {
  const content = "word ".repeat(8000);
  const message: Message = { role: "tool", toolCallId: "call_1", content, isError: false };
  assertEquals(estimateMessageTokens(message), 4 + text("call_1") + text(content));
  // head 4000 + tail 4000 characters + 12 for the marker
  assertEquals(
    estimateMessageTokens(message, { toolOutputLimit: 8000 }),
    4 + text("call_1") + text(content.slice(0, 4000)) + text(content.slice(-4000)) + 12,
  );
});

Deno.test("estimateRequestTokens() includes the system prompt and the tool definitions", () => {
  const messages: Message[] = [{ role: "user", content: "hi" }];
  const base = 3 + 4 + text(OVERHEAD.system) + 4 + text("hi");
  assertEquals(
    estimateRequestTokens({ ...OVERHEAD, messages }),
    base + text(JSON.stringify(TOOLS)),
  );
  assertEquals(estimateRequestTokens({ ...OVERHEAD, tools: [], messages }), base);
});

Deno.test("estimateContextTokens() adds later messages to the last usage", () => {
  const session = sessionOf([{ role: "user", content: "read notes" }, READ_CALL]);
  session.recordUsage({ totalTokens: 5000, historyLength: 2 });
  const added: Message = {
    role: "tool",
    toolCallId: "call_1",
    content: "x".repeat(400),
    isError: false,
  };
  session.append(added);
  const memory = [...session.history];
  assertEquals(
    estimateContextTokens(session, memory, OVERHEAD),
    5000 + estimateMessageTokens(added),
  );
});

Deno.test("estimateContextTokens() estimates the whole request without usage", () => {
  const session = sessionOf([{ role: "user", content: "hi" }]);
  const whole = estimateRequestTokens({ ...OVERHEAD, messages: session.history });
  assertEquals(estimateContextTokens(session, session.history, OVERHEAD), whole);
});

Deno.test("estimateContextTokens() ignores usage that does not fit the history", () => {
  const session = sessionOf([{ role: "user", content: "hi" }]);
  const whole = estimateRequestTokens({ ...OVERHEAD, messages: session.history });
  session.recordUsage({ totalTokens: 5000, historyLength: 3 });
  assertEquals(estimateContextTokens(session, session.history, OVERHEAD), whole);
  session.recordUsage({ totalTokens: 0, historyLength: 1 });
  assertEquals(estimateContextTokens(session, session.history, OVERHEAD), whole);
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
  const whole = estimateRequestTokens({ ...OVERHEAD, messages: memory });
  assertEquals(estimateContextTokens(session, memory, OVERHEAD), whole);
});

Deno.test("estimatePrefixTokens() subtracts the messages after the prefix from the usage, at their least", () => {
  const result: Message = {
    role: "tool",
    toolCallId: "call_1",
    content: "word ".repeat(2000),
    isError: false,
  };
  const answer: Message = { role: "assistant", content: "Read it.", toolCalls: [] };
  const session = sessionOf([{ role: "user", content: "read notes" }, READ_CALL, result, answer]);
  const prefix = session.history.slice(0, 2);
  const whole = estimateRequestTokens({ ...OVERHEAD, messages: prefix });
  // Without usage: the estimate of the prefix itself.
  assertEquals(estimatePrefixTokens(session, 2, prefix, OVERHEAD), whole);
  // The real count of the whole memory, less the result and answer counted as small as the
  // estimator's largest overshoot (1.25) allows: a bound the prefix cannot exceed.
  session.recordUsage({ totalTokens: 3000, historyLength: 4 });
  const after = estimateMessageTokens(result) + estimateMessageTokens(answer);
  assertEquals(
    estimatePrefixTokens(session, 2, prefix, OVERHEAD),
    Math.min(whole, Math.ceil(3000 - after / 1.25)),
  );
  session.recordUsage({ totalTokens: 60, historyLength: 4 });
  assert(estimatePrefixTokens(session, 2, prefix, OVERHEAD) < whole);
});
