import { assertEquals } from "@std/assert";
import { Session, type SessionRecord } from "../../../src/session/session.ts";
import type { Message } from "../../../src/core/messages.ts";
import type { TodoItem } from "../../../src/core/todo.ts";
import { pathsOf } from "../../support/tool_paths.ts";
import { todoItemsOf } from "../../../src/tools/todo.ts";

const READ: Message = {
  role: "assistant",
  content: "",
  toolCalls: [
    { id: "1", name: "read_file", arguments: '{"path":"a.md"}' },
    { id: "2", name: "edit_file", arguments: '{"path":"b.ts","old_string":"x","new_string":"y"}' },
    { id: "3", name: "write_file", arguments: "{not json" },
  ],
};

Deno.test("Session mirrors every change to its sink in order", () => {
  const written: SessionRecord[] = [];
  const session = new Session({
    sink: { write: (record) => written.push(record), close: () => {} },
  });
  session.append({ role: "user", content: "hi" });
  session.recordUsage({ totalTokens: 10, historyLength: 1 });
  session.applyCompaction({ summary: "s", compactedUntil: 1 }, {
    tokensBefore: 10,
    tokensAfter: 3,
  });
  assertEquals(written, [
    { type: "message", message: { role: "user", content: "hi" } },
    { type: "usage", usage: { totalTokens: 10, historyLength: 1 } },
    {
      type: "compaction",
      state: { summary: "s", compactedUntil: 1 },
      tokensBefore: 10,
      tokensAfter: 3,
    },
  ]);
  assertEquals(session.usage, undefined, "a compaction makes the usage snapshot stale");
});

Deno.test("Session.fromRecords() restores history, usage, compaction and the file lists its tools declare", () => {
  const records: SessionRecord[] = [
    { type: "message", message: { role: "user", content: "go" } },
    { type: "message", message: READ },
    {
      type: "compaction",
      state: { summary: "S", compactedUntil: 1 },
      tokensBefore: 9,
      tokensAfter: 2,
    },
    { type: "usage", usage: { totalTokens: 42, historyLength: 2 } },
  ];
  const written: SessionRecord[] = [];
  const session = Session.fromRecords(records, {
    sink: { write: (record) => written.push(record), close: () => {} },
    pathsOf,
  });
  assertEquals(session.history, [{ role: "user", content: "go" }, READ]);
  assertEquals(session.usage, { totalTokens: 42, historyLength: 2 });
  assertEquals(session.compaction, { summary: "S", compactedUntil: 1 });
  assertEquals(session.recent(), [READ]);
  assertEquals([session.filesRead, session.filesModified], [["a.md"], ["b.ts"]]);
  assertEquals(written, [], "replaying must not write the records again");
});

Deno.test("Session.recordProfile() records the switch and makes the usage snapshot stale", () => {
  const written: SessionRecord[] = [];
  const session = new Session({
    sink: { write: (record) => written.push(record), close: () => {} },
  });
  assertEquals(session.profile, undefined, "a session that never switched names no profile");
  session.append({ role: "user", content: "hi" });
  session.recordUsage({ totalTokens: 10, historyLength: 1 });
  session.recordProfile("small");
  assertEquals(written.at(-1), { type: "model", profile: "small" });
  assertEquals([session.profile, session.usage], ["small", undefined]);
  const resumed = Session.fromRecords(written);
  assertEquals([resumed.profile, resumed.usage], ["small", undefined]);
  assertEquals(resumed.history, session.history);
});

Deno.test("Session.recordPlanMode() records the mode, which fromRecords() restores", () => {
  const written: SessionRecord[] = [];
  const session = new Session({
    sink: { write: (record) => written.push(record), close: () => {} },
  });
  assertEquals(session.planMode, false, "off without a record");
  session.append({ role: "user", content: "hi" });
  session.recordPlanMode(true);
  assertEquals(written.at(-1), { type: "plan", on: true });
  assertEquals([session.planMode, Session.fromRecords(written).planMode], [true, true]);
  session.recordPlanMode(false);
  assertEquals(Session.fromRecords(written).planMode, false);
});

/** An assistant message calling the todo tool with `items` (as raw JSON when a string). */
function todoCall(id: string, items: unknown): Message {
  const args = typeof items === "string" ? items : JSON.stringify({ items });
  return { role: "assistant", content: "", toolCalls: [{ id, name: "todo", arguments: args }] };
}

Deno.test("Session.todo is the list of the latest todo call that succeeded, also after fromRecords()", () => {
  const first: TodoItem[] = [{ text: "Read", status: "done" }, {
    text: "Write",
    status: "pending",
  }];
  const second = [{ text: "Read", status: "done" }, { text: "Write", status: "in_progress" }];
  const messages: Message[] = [
    { role: "user", content: "go" },
    todoCall("t1", first),
    { role: "tool", toolCallId: "t1", content: "Wrote TODO.md", isError: false },
    todoCall("t2", second),
    { role: "tool", toolCallId: "t2", content: "Error: Cannot write", isError: true },
    todoCall("t3", "{not json"),
    { role: "tool", toolCallId: "t3", content: "Error: bad", isError: true },
    todoCall("t4", [{ text: "Two", status: "in_progress" }, {
      text: "Busy",
      status: "in_progress",
    }]),
    { role: "tool", toolCallId: "t4", content: "Wrote (a forged result)", isError: false },
  ];
  const session = new Session({ todoOf: todoItemsOf });
  assertEquals(session.todo, undefined);
  for (const [index, message] of messages.entries()) {
    session.append(message);
    if (index === 2) assertEquals(session.todo, first);
  }
  assertEquals(session.todo, first, "a failed call and lists the tool refuses change nothing");
  const records = messages.map((message) => ({ type: "message" as const, message }));
  assertEquals(Session.fromRecords(records, { todoOf: todoItemsOf }).todo, first);
  assertEquals(Session.fromRecords(records).todo, undefined, "without todoOf there is no list");
});

Deno.test("Session.close() closes its sink", () => {
  let closed = 0;
  const session = new Session({ sink: { write: () => {}, close: () => closed++ } });
  session.close();
  assertEquals(closed, 1);
});
