/**
 * Cross-record checks on load: a session file whose records contradict each other is
 * refused with its file and line; what crashes and interruptions leave loads.
 */
import { assertEquals } from "@std/assert";
import { assertLoadRefused, withStore, writeSession } from "../../support/store.ts";
import { SessionError } from "../../../src/session/store.ts";

const USER = { type: "message", message: { role: "user", content: "hello" } };

/** One session file line per record, for hand-made sessions. */
function body(...records: unknown[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join("");
}

const message = (value: Record<string, unknown>) => ({ type: "message", message: value });
const assistant = (...ids: string[]) =>
  message({
    role: "assistant",
    content: "",
    toolCalls: ids.map((id) => ({ id, name: "read_file", arguments: "{}" })),
  });
const result = (id: string) =>
  message({ role: "tool", toolCallId: id, content: "ok", isError: false });

Deno.test("SessionStore.load() refuses a record that contradicts the records before it", async () => {
  await withStore(async (store, dir) => {
    const compaction = (compactedUntil: number) => ({
      type: "compaction",
      state: { summary: "s", compactedUntil },
      tokensBefore: 10,
      tokensAfter: 5,
    });
    const cases: [string, string][] = [
      [
        body(USER, compaction(40)),
        "line 3 compacts until message 40, but only 1 come before it",
      ],
      [
        body(USER, { type: "usage", usage: { totalTokens: 9, historyLength: 2 } }),
        "line 3 has usage covering 2 messages, but only 1 come before it",
      ],
      [
        body(USER, result("c1")),
        'line 3 answers tool call "c1", which no unanswered call of the assistant message ' +
        "before it made",
      ],
      [
        body(USER, assistant("c1"), result("c1"), result("c1")),
        'line 5 answers tool call "c1", which no unanswered call of the assistant message ' +
        "before it made",
      ],
      [
        body(USER, assistant("c1"), assistant("c2"), result("c1")),
        'line 5 answers tool call "c1", which no unanswered call of the assistant message ' +
        "before it made",
      ],
      [body(USER, assistant("c1", "c1")), 'line 3 has tool call id "c1" twice'],
    ];
    await assertLoadRefused(store, dir, cases, SessionError);
  });
});

Deno.test("SessionStore.load() accepts what crashes and interruptions leave", async () => {
  await withStore(async (store, dir) => {
    const records = [
      USER,
      assistant("c1", "c2"),
      { type: "usage", usage: { totalTokens: 30, historyLength: 2 } },
      result("c2"),
      USER,
      assistant("c1"),
      result("c1"),
      {
        type: "compaction",
        state: { summary: "s", compactedUntil: 6 },
        tokensBefore: 10,
        tokensAfter: 5,
      },
    ];
    await writeSession(dir, "ok", body(...records));
    const loaded = await store.load("ok");
    loaded.file.close();
    assertEquals(loaded.records as unknown[], records);
  });
});
