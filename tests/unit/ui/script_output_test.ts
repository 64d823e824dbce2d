import { assertEquals } from "@std/assert";
import { ScriptOutput } from "../../../src/ui/script_output.ts";
import { Redactor } from "../../../src/config/redact.ts";
import { EventChannel } from "../../../src/core/events.ts";
import type { Message } from "../../../src/core/messages.ts";
import { emptyTally } from "../../../src/core/spend.ts";
import { readEventSchemas, schemaProblems } from "../../support/event_schema.ts";

const README = await Deno.readTextFile(new URL("../../../docs/scripting.md", import.meta.url));
const SCHEMAS = readEventSchemas(README);
const SECRET = "sk-secret-123456";

/** A ScriptOutput over an event channel, a history and a clock the test moves. */
function setup(format: "json" | "stream-json") {
  const events = new EventChannel();
  const history: Message[] = [];
  const written: string[] = [];
  const clock = { now: 1000 };
  const task = { ...emptyTally(), requests: 3, steps: 2, promptTokens: 900, cachedTokens: 500 };
  const output = new ScriptOutput({
    subscribe: (listener) => events.subscribe(listener),
    view: { id: "s1", history },
    spend: () => ({ task: { ...task, completionTokens: 40 }, session: task, limits: {} }),
  }, {
    format,
    redactor: new Redactor([SECRET]),
    model: "m",
    roots: ["/w"],
    write: (text) => written.push(text),
    now: () => clock.now,
  });
  const lines = () =>
    written.join("").split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
  return { events, history, output, lines, clock };
}

Deno.test("ScriptOutput writes every kind of event as the README's schema says, redacted", () => {
  const { events, history, output, lines, clock } = setup("stream-json");
  output.start();
  const call = { id: "c1", name: "bash", arguments: `{"command":"echo ${SECRET}"}` };
  events.emit({ type: "thinking" });
  events.emit({ type: "reasoning", text: "hmm" });
  events.emit({ type: "text", text: "par" });
  events.emit({ type: "discard_partial" });
  events.emit({ type: "retry", attempt: 1, delayMs: 500, reason: `bad key ${SECRET}` });
  events.emit({ type: "tool_start", call, description: { kind: "text", text: "echo" } });
  events.emit({ type: "tool_output", call, text: "x\n" });
  history.push({ role: "tool", toolCallId: "c1", content: "héllo", isError: false });
  events.emit({ type: "tool_end", call, isError: false, summary: "exit 0" });
  events.emit({
    type: "compaction_start",
    reason: "overflow",
    estimatedTokens: 9,
    contextWindow: 8,
  });
  events.emit({
    type: "compaction_end",
    tokensBefore: 9000,
    tokensAfter: 2000,
    compactedUntil: 4,
    messagesFolded: 4,
  });
  events.emit({ type: "warning", message: "cut" });
  events.emit({ type: "text", text: `Key: ${SECRET.slice(0, 5)}` });
  events.emit({ type: "text", text: `${SECRET.slice(5)}.` });
  clock.now = 1250;
  output.finish({ status: "failed", error: `The provider refused ${SECRET}` });
  const written = lines();
  for (const line of written) {
    assertEquals(schemaProblems(line, SCHEMAS.get(line.type)!), [], JSON.stringify(line));
  }
  assertEquals(written, [
    { type: "start", session: "s1", model: "m", roots: ["/w"] },
    { type: "reasoning_delta", text: "hmm" },
    { type: "text_delta", text: "par" },
    { type: "discard" },
    { type: "retry", attempt: 1, delayMs: 500, reason: "bad key [redacted]" },
    { type: "tool_call", id: "c1", name: "bash", arguments: '{"command":"echo [redacted]"}' },
    { type: "tool_result", id: "c1", isError: false, summary: "exit 0", bytes: 6 },
    {
      type: "compaction",
      reason: "overflow",
      tokensBefore: 9000,
      tokensAfter: 2000,
      messagesFolded: 4,
    },
    { type: "warning", message: "cut" },
    // A secret split between two pieces is held back until it is whole, then redacted.
    { type: "text_delta", text: "Key: " },
    { type: "text_delta", text: "[redacted]." },
    {
      type: "result",
      status: "failed",
      result: "",
      error: "The provider refused [redacted]",
      session: "s1",
      steps: 2,
      usage: { prompt: 900, completion: 40, cached: 500, total: 940 },
      "duration_ms": 250,
    },
  ]);
});

Deno.test("ScriptOutput with json writes the result object alone", () => {
  const { events, output, lines } = setup("json");
  output.start();
  events.emit({ type: "text", text: "Done." });
  output.finish({ status: "done", answer: "Done." });
  assertEquals(lines().map((line) => [line.type, line.status, line.result]), [
    ["result", "done", "Done."],
  ]);
});

Deno.test("the README's stream-json example follows its schema", () => {
  const section = README.split(/^## Scripting$/m)[1] ?? "";
  const example = /A two-tool task[\s\S]*?```\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  const events = example.trim().split("\n").map((line) => JSON.parse(line));
  assertEquals(events.length > 5, true);
  for (const event of events) {
    assertEquals(schemaProblems(event, SCHEMAS.get(event.type)!), [], JSON.stringify(event));
  }
});
