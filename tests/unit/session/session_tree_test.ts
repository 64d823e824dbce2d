import { assertEquals, assertThrows } from "@std/assert";
import { assertLoadRefused, withStore, writeSession } from "../../support/store.ts";
import { Session, type SessionRecord } from "../../../src/session/session.ts";
import { SessionError } from "../../../src/session/store.ts";

const message = (
  role: "user" | "assistant",
  content: string,
): Extract<SessionRecord, { type: "message" }> =>
  role === "user"
    ? { type: "message", message: { role, content } }
    : { type: "message", message: { role, content, toolCalls: [] } };

const line = (record: SessionRecord, parent?: number) =>
  JSON.stringify(parent === undefined ? record : { ...record, parent }) + "\n";

Deno.test("Session.continueFrom() goes back to an entry in place; the next record names it as parent", () => {
  const written: unknown[] = [];
  const session = new Session({ sink: { write: (record) => written.push(record), close() {} } });
  session.append(message("user", "one").message);
  session.append(message("assistant", "One.").message);
  session.recordUsage({ totalTokens: 50, historyLength: 2 });
  session.append(message("user", "two").message);
  session.append(message("assistant", "Two.").message);
  session.continueFrom(4);
  assertEquals(session.history.map((m) => m.content), ["one", "One."]);
  assertEquals(session.usage, { totalTokens: 50, historyLength: 2 });
  session.append(message("user", "other").message);
  assertEquals(written.at(-1), { ...message("user", "other"), parent: 4 });
  assertEquals(session.entries.current, 7);
  assertEquals(session.entries.all.length, 6);
  session.continueFrom(6);
  assertEquals(session.history.map((m) => m.content), ["one", "One.", "two", "Two."]);
  assertThrows(() => session.continueFrom(9), RangeError, "Cannot find entry 9 of the session");
});

Deno.test("SessionStore.load() of a version 3 file follows the path to its last line, and keeps every entry", async () => {
  await withStore(async (store, dir) => {
    const body = line(message("user", "one")) + line(message("assistant", "One.")) +
      line(message("user", "two")) + line(message("assistant", "Two.")) +
      line(message("user", "three"), 3) + line(message("assistant", "Three."));
    await writeSession(dir, "tree", body, { version: 3 });
    const loaded = await store.load("tree");
    loaded.file.close();
    assertEquals(
      loaded.records.map((record) => record.type === "message" && record.message.content),
      ["one", "One.", "three", "Three."],
    );
    assertEquals(loaded.entries.map((entry) => [entry.id, entry.parent]), [
      [2, 1],
      [3, 2],
      [4, 3],
      [5, 4],
      [6, 3],
      [7, 6],
    ]);
    const session = Session.fromEntries(loaded.entries);
    session.continueFrom(5);
    assertEquals(session.history.map((m) => m.content), ["one", "One.", "two", "Two."]);
  });
});

Deno.test("SessionStore.load() refuses a parent that is no earlier line, and a branch that does not hold", async () => {
  await withStore(async (store, dir) => {
    const call: SessionRecord = {
      type: "message",
      message: {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c", name: "t", arguments: "{}" }],
      },
    };
    const result: SessionRecord = {
      type: "message",
      message: { role: "tool", toolCallId: "c", content: "ok", isError: false },
    };
    await assertLoadRefused(store, dir, [
      [line(message("user", "one"), 2), "line 2 has parent 2, which is no earlier line"],
      [line(message("user", "one"), 0), "line 2 has parent 0, which is no earlier line"],
      [
        line(message("user", "one")) + line(call) + line(result, 2) + line(message("user", "two")),
        'line 4 answers tool call "c", which no unanswered call of the assistant message before it made',
      ],
    ], SessionError);
  });
});
