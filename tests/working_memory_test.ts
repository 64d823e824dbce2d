import { assertEquals } from "@std/assert";
import { calls, result, sessionOf } from "./support/messages.ts";
import {
  buildWorkingMemory,
  MISSING_RESULT,
  repairPairing,
  shrinkToFit,
  summaryMessage,
  truncateMiddle,
  withFileLists,
  withoutFileLists,
} from "../src/context/working_memory.ts";
import type { Message } from "../src/messages.ts";

const SUMMARY_TEXT =
  "The conversation before this point was compacted into this summary:\n\n<summary>\nS\n" +
  "</summary>\n\nContinue from here: carry on with the Next Steps above, if any, taking the " +
  "messages that follow into account.";

Deno.test("truncateMiddle() keeps the first and last 4000 characters with a marker", () => {
  const text = "a".repeat(4000) + "b".repeat(2000) + "c".repeat(4000);
  assertEquals(
    truncateMiddle(text, 8000),
    "a".repeat(4000) + "\n\n[... 2000 characters omitted ...]\n\n" + "c".repeat(4000),
  );
  assertEquals(truncateMiddle("short", 8000), "short");
});

Deno.test("truncateMiddle() never splits a surrogate pair", () => {
  assertEquals(
    truncateMiddle("ab😀cd" + "x".repeat(10), 6),
    "ab\n\n[... 11 characters omitted ...]\n\nxxx",
  );
});

Deno.test("buildWorkingMemory() puts the summary first and shortens long tool outputs", () => {
  const history: Message[] = [
    { role: "user", content: "old task" },
    { role: "assistant", content: "old answer", toolCalls: [] },
    { role: "user", content: "new task" },
    calls("c1"),
    result("c1", "a".repeat(5000) + "b".repeat(5000)),
  ];
  const session = sessionOf(history, { summary: "S", compactedUntil: 2 });
  const before = structuredClone(history);
  assertEquals(buildWorkingMemory(session), [
    { role: "user", content: SUMMARY_TEXT },
    { role: "user", content: "new task" },
    calls("c1"),
    result(
      "c1",
      "a".repeat(4000) + "\n\n[... 2000 characters omitted ...]\n\n" + "b".repeat(4000),
    ),
  ]);
  assertEquals(summaryMessage("S"), { role: "user", content: SUMMARY_TEXT });
  assertEquals(session.history, before);
});

Deno.test("repairPairing() synthesizes missing results after the call's other results", () => {
  const messages: Message[] = [
    { role: "user", content: "task" },
    calls("c1", "c2", "c3"),
    result("c1"),
    result("c3"),
    { role: "user", content: "next" },
    calls("c4"),
  ];
  const before = structuredClone(messages);
  assertEquals(repairPairing(messages), [
    { role: "user", content: "task" },
    calls("c1", "c2", "c3"),
    result("c1"),
    result("c3"),
    result("c2", MISSING_RESULT),
    { role: "user", content: "next" },
    calls("c4"),
    result("c4", MISSING_RESULT),
  ]);
  assertEquals(messages, before);
});

Deno.test("repairPairing() drops results without their call and repeated results", () => {
  const messages: Message[] = [
    result("c0"),
    { role: "user", content: "task" },
    result("c9"),
    calls("c1"),
    result("c1"),
    result("c1", "again"),
    result("c7"),
  ];
  assertEquals(repairPairing(messages), [
    { role: "user", content: "task" },
    calls("c1"),
    result("c1"),
  ]);
  assertEquals(messages.length, 7);
});

Deno.test("shrinkToFit() leaves out the oldest pieces but keeps the last user message", () => {
  const session = sessionOf([
    { role: "user", content: "A" },
    calls("c1"),
    result("c1"),
    calls("c2"),
    result("c2"),
    { role: "user", content: "B" },
    calls("c3"),
    result("c3"),
    calls("c4"),
    result("c4"),
  ], { summary: "S", compactedUntil: 0 });
  const note = (count: number) =>
    `${SUMMARY_TEXT}\n\n(${count} earlier messages were left out of this request to fit the context window.)`;
  assertEquals(shrinkToFit(session, (messages) => messages.length <= 6), {
    messages: [
      { role: "user", content: note(5) },
      { role: "user", content: "B" },
      calls("c3"),
      result("c3"),
      calls("c4"),
      result("c4"),
    ],
    toolOutputLimit: 500,
    omitted: 5,
  });
  assertEquals(shrinkToFit(session, (messages) => messages.length <= 4)?.messages, [
    { role: "user", content: note(7) },
    { role: "user", content: "B" },
    calls("c4"),
    result("c4"),
  ]);
  assertEquals(shrinkToFit(session, () => false), undefined);
});

Deno.test("shrinkToFit() cuts older tool outputs before the results of the newest step", () => {
  const long = (id: string) => `${id} head ${"x".repeat(3000)} middle ${"y".repeat(3000)} tail`;
  const session = sessionOf([
    { role: "user", content: "Read both" },
    calls("c1"),
    result("c1", long("c1")),
    calls("c2"),
    result("c2", long("c2")),
  ]);
  const size = (messages: Message[]) => messages.reduce((sum, m) => sum + m.content.length, 0);
  const shrunk = shrinkToFit(session, (messages) => size(messages) <= 8000);
  assertEquals(shrunk?.toolOutputLimit, 1000);
  assertEquals(shrunk?.messages[2], result("c1", truncateMiddle(long("c1"), 1000)));
  assertEquals(shrunk?.messages[4], result("c2", long("c2")));
});

Deno.test("withFileLists() replaces the lists a summary already carries", () => {
  const files = { filesRead: ["a.md", "b.md"], filesModified: [] };
  const summary = withFileLists("## User Goal\nx", files);
  assertEquals(summary, "## User Goal\nx\n\n---\nFiles read: a.md, b.md\nFiles modified: none");
  assertEquals(withoutFileLists(summary), "## User Goal\nx");
  assertEquals(
    withFileLists(summary, { filesRead: ["a.md"], filesModified: ["c.md"] }),
    "## User Goal\nx\n\n---\nFiles read: a.md\nFiles modified: c.md",
  );
});
