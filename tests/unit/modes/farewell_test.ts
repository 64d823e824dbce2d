/**
 * Issue 36.17: the exit line says what the session spent beside how to continue it, and
 * wraps by word on a narrow terminal instead of being cut.
 */
import { assertEquals, assertMatch } from "@std/assert";
import { KEYS } from "../../support/fake_terminal.ts";
import { openReplDouble, type ReplDouble } from "../../support/repl_double.ts";

const USAGE = { promptTokens: 1118, completionTokens: 149, cachedTokens: 0 };
const PRICING = { input: 3, cachedInput: 0.3, output: 15 };

/** Runs one task, ends the REPL and returns the rows after the last prompt. */
async function exitAfterTask(repl: ReplDouble): Promise<string[]> {
  await repl.type(`go${KEYS.enter}`);
  await repl.until((lines) => lines.some((line) => line.startsWith("context ")), "the task");
  assertEquals(await repl.end(), 0);
  const lines = repl.lines();
  return lines.slice(lines.lastIndexOf(">") + 1);
}

Deno.test("the exit lines say what the session spent, tokens and cost, at 80 columns", async () => {
  const repl = await openReplDouble([{ text: "Done.", usage: USAGE }], { pricing: PRICING });
  const rows = await exitAfterTask(repl);
  assertEquals(rows.length, 2, rows.join("\n"));
  assertEquals(rows[0], "Spent 1.3k tokens, $0.0056");
  assertMatch(rows[1] ?? "", /^Session \d{8}-\d{6}-\w{6} saved: powercode -c continues it$/);
});

Deno.test("the exit lines wrap by word at 50 columns; without prices: tokens only", async () => {
  const repl = await openReplDouble([{ text: "Done.", usage: USAGE }], { width: 50 });
  const rows = await exitAfterTask(repl);
  assertEquals(rows.length, 3, rows.join("\n"));
  assertEquals(rows[0], "Spent 1.3k tokens");
  assertMatch(rows[1] ?? "", /^Session \d{8}-\d{6}-\w{6} saved: powercode$/);
  assertEquals(rows[2], "  -c continues it");
});
