import { assertEquals } from "@std/assert";
import { treeLines } from "../../../src/commands/tree.ts";
import { Session } from "../../../src/session/session.ts";

function task(session: Session, text: string): void {
  session.startTask(null);
  session.append({ role: "user", content: text });
  session.append({ role: "assistant", content: `${text}: done`, toolCalls: [] });
  session.endTask(null);
}

function lines(session: Session): string[] {
  const inView = new Set<unknown>(session.history);
  const { all, current } = session.entries;
  return treeLines(all, current, { inView: (message) => inView.has(message) });
}

Deno.test("treeLines() lists each task with the entry after its answer, branches indented, the current one marked", () => {
  const session = new Session();
  task(session, "one");
  task(session, "two");
  session.continueFrom(5);
  task(session, "three");
  assertEquals(lines(session), [
    "  5  one",
    "    9  two",
    "▶   13  three",
  ]);
  session.continueFrom(9);
  assertEquals(lines(session), [
    "  5  one",
    "▶   9  two",
    "    13  three",
  ]);
});

Deno.test("treeLines() marks a task an undo took out, and continuing after it brings it back", () => {
  const session = new Session();
  task(session, "one");
  task(session, "two");
  session.undo({ keep: 2 });
  assertEquals(lines(session), [
    "▶ 5  one",
    "  9  two (undone)",
  ]);
  session.continueFrom(9);
  assertEquals(session.history.map((message) => message.content), [
    "one",
    "one: done",
    "two",
    "two: done",
  ]);
  assertEquals(lines(session), ["  5  one", "▶ 9  two"]);
});
