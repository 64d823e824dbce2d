/**
 * The last-resort shortening of a request that does not fit even after compaction.
 */
import { assertEquals } from "@std/assert";
import { shrinkToFit } from "../../../src/context/shrink.ts";
import { truncateMiddle } from "../../../src/context/working_memory.ts";
import type { Message } from "../../../src/core/messages.ts";
import { calls, result, sessionOf } from "../../support/messages.ts";

const SUMMARY_TEXT =
  "The conversation before this point was compacted into this summary:\n\n<summary>\nS\n" +
  "</summary>\n\nContinue from here: carry on with the Next Steps above, if any, taking the " +
  "messages that follow into account.";

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
