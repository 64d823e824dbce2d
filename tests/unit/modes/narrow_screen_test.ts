/**
 * Issue 36.3: what powercode writes of its own (`/cost`, `/model`) wraps by word on a narrow
 * terminal, each wrapped row indented under its line, never cut mid-word by the terminal.
 */
import { assertEquals } from "@std/assert";
import { KEYS } from "../../support/fake_terminal.ts";
import { openReplDouble } from "../../support/repl_double.ts";

const USAGE = { promptTokens: 1118, completionTokens: 149, cachedTokens: 0 };
const PRICING = { input: 3, cachedInput: 0.3, output: 15 };

/** The rows after the line typed last, up to the prompt below them. */
function after(lines: string[], typed: string): string[] {
  const from = lines.lastIndexOf(`> ${typed}`);
  return lines.slice(from + 1, -1);
}

Deno.test("/cost wraps by word at 80 columns", async () => {
  const repl = await openReplDouble([{ text: "Done.", usage: USAGE }], { pricing: PRICING });
  await repl.type(`go${KEYS.enter}`);
  await repl.until((lines) => lines.some((line) => line.startsWith("context ")), "the task");
  await repl.type(`/cost${KEYS.enter}`);
  await repl.until((lines) => lines.at(-2)?.startsWith("Budget") ?? false, "/cost");
  assertEquals(after(repl.lines(), "/cost"), [
    "Last task: 1 request, 1267 tokens: prompt 1118 (0 cached, 0%), completion 149,",
    "  $0.0056",
    "Session:   1 request, 1267 tokens: prompt 1118 (0 cached, 0%), completion 149,",
    "  $0.0056",
    "Prices per million tokens: input $3, cached input $0.3, output $15",
    'Budget: none (--max-tokens, --max-cost, or "budget" in the provider file)',
  ]);
  assertEquals(await repl.end(), 0);
});

Deno.test("/cost and /model wrap by word at 50 columns", async () => {
  const repl = await openReplDouble([{ text: "Done.", usage: USAGE }], {
    pricing: PRICING,
    width: 50,
  });
  await repl.type(`go${KEYS.enter}`);
  await repl.until((lines) => lines.some((line) => line.startsWith("context ")), "the task");
  await repl.type(`/cost${KEYS.enter}`);
  await repl.until((lines) => lines.some((line) => line.includes("provider file)")), "/cost");
  assertEquals(after(repl.lines(), "/cost"), [
    "Last task: 1 request, 1267 tokens: prompt 1118 (0",
    "  cached, 0%), completion 149, $0.0056",
    "Session:   1 request, 1267 tokens: prompt 1118 (0",
    "  cached, 0%), completion 149, $0.0056",
    "Prices per million tokens: input $3, cached input",
    "  $0.3, output $15",
    "Budget: none (--max-tokens, --max-cost, or",
    '  "budget" in the provider file)',
  ]);
  await repl.type(`/model a-profile-name-that-is-not-there-at-all${KEYS.enter}`);
  await repl.until((lines) => lines.some((line) => line.startsWith("✗")), "the refusal");
  const refusal = repl.lines().slice(repl.lines().findIndex((line) => line.startsWith("✗")), -1);
  for (const row of refusal) assertEquals(/\S$/.test(row) && row.length <= 49, true, row);
  assertEquals(await repl.end(), 0);
});
