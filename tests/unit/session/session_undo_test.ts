/**
 * Undo and redo in the session: the conversation goes back to before a task, with the state
 * it had then, and a redo brings the task back; the file stays append-only and replays to
 * the same view.
 */
import { assertEquals, assertThrows } from "@std/assert";
import { Session, type SessionRecord } from "../../../src/session/session.ts";
import type { Message } from "../../../src/core/messages.ts";
import { assertLoadRefused, withStore, writeSession } from "../../support/store.ts";
import { pathsOf } from "../../support/tool_paths.ts";
import { SessionError } from "../../../src/session/store.ts";

const TREE_A = "a".repeat(64);
const TREE_B = "b".repeat(64);
const TREE_C = "c".repeat(64);

const EDIT: Message = {
  role: "assistant",
  content: "",
  toolCalls: [{
    id: "e1",
    name: "edit_file",
    arguments: JSON.stringify({ path: "b.ts", old_string: "x", new_string: "y" }),
  }],
};

/** A session with two tasks: the first answered and compacted, the second editing b.ts. */
function twoTasks(records: SessionRecord[]): Session {
  const session = new Session({
    sink: { write: (record) => records.push(record), close: () => {} },
    pathsOf,
  });
  session.startTask(TREE_A);
  session.append({ role: "user", content: "first" });
  session.append({ role: "assistant", content: "done", toolCalls: [] });
  session.recordUsage({ totalTokens: 50, historyLength: 2 });
  session.endTask(TREE_B);
  session.startTask(TREE_B);
  session.append({ role: "user", content: "second" });
  session.append(EDIT);
  session.append({ role: "tool", toolCallId: "e1", content: "ok", isError: false });
  session.applyCompaction({ summary: "S", compactedUntil: 2 }, { tokensBefore: 9, tokensAfter: 3 });
  session.append({ role: "assistant", content: "edited", toolCalls: [] });
  session.endTask(TREE_C);
  return session;
}

Deno.test("Session.undo() takes the last task out and puts back the state before it", () => {
  const records: SessionRecord[] = [];
  const session = twoTasks(records);
  assertEquals(session.tasks, [
    { at: 0, before: TREE_A, after: TREE_B },
    { at: 2, before: TREE_B, after: TREE_C },
  ]);
  assertEquals(session.filesModified, ["b.ts"]);
  session.undo({ keep: 2, files: { from: TREE_C, to: TREE_B } });
  assertEquals(session.history.map((message) => message.content), ["first", "done"]);
  assertEquals(session.compaction, undefined);
  assertEquals(session.usage, { totalTokens: 50, historyLength: 2 });
  assertEquals(session.filesModified, []);
  assertEquals(session.tasks, [{ at: 0, before: TREE_A, after: TREE_B }]);
  assertEquals(session.tree, TREE_B);
  assertEquals(session.redoable, { messages: 4, files: { from: TREE_C, to: TREE_B } });
  // The undo goes back to the entry before the task began (6: the first task's end) and
  // keeps the task as a branch ending at entry 13.
  assertEquals(records.at(-1) as unknown, {
    type: "undo",
    keep: 2,
    files: { from: TREE_C, to: TREE_B },
    from: 13,
    parent: 6,
  });
});

Deno.test("Session.redo() brings the task back as it was when undone", () => {
  const records: SessionRecord[] = [];
  const session = twoTasks(records);
  const before = { history: [...session.history], compaction: session.compaction };
  session.undo({ keep: 2 });
  session.redo();
  assertEquals(session.history, before.history);
  assertEquals(session.compaction, before.compaction);
  assertEquals(session.usage, undefined);
  assertEquals(session.filesModified, ["b.ts"]);
  assertEquals(session.tasks.length, 2);
  assertEquals(session.redoable, undefined);
  assertThrows(() => session.redo(), RangeError, "nothing was undone");
});

Deno.test("Session: a new task or message ends what can be redone", () => {
  const session = twoTasks([]);
  session.undo({ keep: 2 });
  session.startTask(TREE_B);
  assertEquals(session.redoable, undefined);
  session.undo({ keep: 0 });
  session.append({ role: "user", content: "again" });
  assertEquals(session.redoable, undefined);
});

Deno.test("Session: undos stack, and a files-only undo keeps the conversation", () => {
  const session = twoTasks([]);
  session.undo({ files: { from: TREE_C, to: TREE_A } });
  assertEquals(session.history.length, 6);
  assertEquals(session.tree, TREE_A);
  session.undo({ keep: 0 });
  assertEquals(session.history, []);
  assertEquals(session.tasks, []);
  session.redo();
  assertEquals(session.history.length, 6);
  assertEquals(session.redoable, { messages: 0, files: { from: TREE_C, to: TREE_A } });
  session.redo(TREE_C);
  assertEquals(session.tree, TREE_C);
});

Deno.test("Session.fromRecords() replays undos and redos to the same view", () => {
  const records: SessionRecord[] = [];
  const session = twoTasks(records);
  session.undo({ keep: 2, files: { from: TREE_C, to: TREE_B } });
  session.undo({ keep: 0 });
  session.redo();
  const replayed = Session.fromRecords(records, { pathsOf });
  assertEquals(replayed.history, session.history);
  assertEquals(replayed.usage, session.usage);
  assertEquals(replayed.compaction, session.compaction);
  assertEquals(replayed.tasks, session.tasks);
  assertEquals(replayed.tree, session.tree);
  assertEquals(replayed.redoable, session.redoable);
});

Deno.test("SessionStore.load() reads undo records and refuses ones that contradict history", async () => {
  const user = { type: "message", message: { role: "user", content: "hello" } };
  const line = (record: unknown) => `${JSON.stringify(record)}\n`;
  await withStore(async (store, dir) => {
    await writeSession(
      dir,
      "ok",
      [
        { type: "task_start", tree: TREE_A },
        user,
        { type: "task_end", tree: null },
        { type: "undo", keep: 0 },
        { type: "redo" },
      ].map(line).join(""),
      { version: 2 },
    );
    const loaded = await store.load("ok");
    loaded.file.close();
    assertEquals(Session.fromRecords(loaded.records).history.length, 1);
    await assertLoadRefused(store, dir, [
      [
        line(user) + line({ type: "undo", keep: 2 }),
        "line 3 keeps 2 messages, but only 1 come before it",
      ],
      [line(user) + line({ type: "redo" }), "line 3 redoes, but no undo comes before it"],
      [line({ type: "undo" }), "line 2 undoes nothing"],
      [
        line(user) + line({ type: "undo", keep: 0 }) + line(user) + line({ type: "redo" }),
        "line 5 redoes, but no undo comes before it",
      ],
      [line({ type: "task_start", tree: "../x" }), 'line 2 is not a valid "task_start" record'],
    ], SessionError);
  });
});
