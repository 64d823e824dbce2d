import { assertEquals } from "@std/assert";
import { calls, result, sessionOf } from "../../support/messages.ts";
import {
  buildWorkingMemory,
  MISSING_RESULT,
  repairPairing,
  summaryMessage,
  truncateMiddle,
  withFileLists,
  withoutFileLists,
} from "../../../src/context/working_memory.ts";
import type { Message } from "../../../src/core/messages.ts";

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
    result("c2", MISSING_RESULT, true),
    { role: "user", content: "next" },
    calls("c4"),
    result("c4", MISSING_RESULT, true),
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

Deno.test("withFileLists() pins the todo list verbatim and plan mode, which withoutFileLists() removes", () => {
  const todo = [
    { text: "Read", status: "done" },
    { text: "Write", status: "in_progress" },
  ] as const;
  const summary = withFileLists("## User Goal\nx", {
    filesRead: [],
    filesModified: ["TODO.md"],
    todo: [...todo],
    planMode: true,
  });
  assertEquals(
    summary,
    "## User Goal\nx\n\n---\nFiles read: none\nFiles modified: TODO.md\n" +
      "Todo list (TODO.md, kept with the todo tool):\n- [x] Read\n- [ ] Write (in progress)\n" +
      "Plan mode is on: only PLAN.md may be changed, and bash runs read-only.",
  );
  assertEquals(withoutFileLists(summary), "## User Goal\nx");
  assertEquals(
    withFileLists(summary, { filesRead: [], filesModified: [], planMode: false }),
    "## User Goal\nx\n\n---\nFiles read: none\nFiles modified: none",
  );
});

Deno.test("buildWorkingMemory() only appends as history grows, and stops at `end` on a prefix", () => {
  // A session with every kind of repair: a summary, a long output, an interrupted call, a
  // task without a reply.
  const history: Message[] = [
    { role: "user", content: "folded" },
    { role: "assistant", content: "folded answer", toolCalls: [] },
    { role: "user", content: "task 1" },
    calls("c1", "c2"),
    result("c1", "z".repeat(9000)),
    { role: "user", content: "task 2 (the reply failed)" },
    { role: "user", content: "task 3" },
    calls("c3"),
    result("c3"),
    { role: "assistant", content: "done", toolCalls: [] },
    { role: "user", content: "task 4" },
  ];
  const compaction = { summary: "S", compactedUntil: 2 };
  let previous: Message[] = [];
  for (let length = 3; length <= history.length; length++) {
    const memory = buildWorkingMemory(sessionOf(history.slice(0, length), compaction));
    // A request is built only once the newest step's results are in.
    if (history[length]?.role === "tool") continue;
    assertEquals(memory.slice(0, previous.length), previous, `history of ${length}`);
    previous = memory;
  }
  const whole = buildWorkingMemory(sessionOf(history, compaction));
  for (let end = 3; end <= history.length; end++) {
    if (history[end]?.role === "tool") continue;
    const prefix = buildWorkingMemory(sessionOf(history, compaction), { end });
    assertEquals(whole.slice(0, prefix.length), prefix, `end ${end}`);
  }
});
