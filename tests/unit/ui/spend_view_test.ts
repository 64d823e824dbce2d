import { assertEquals } from "@std/assert";
import { describeSpend, spendParts } from "../../../src/ui/spend_view.ts";
import { emptyTally } from "../../../src/core/spend.ts";

const TASK = { ...emptyTally(), requests: 1, steps: 1, promptTokens: 2000, cachedTokens: 1500 };
const SESSION = { ...TASK, requests: 3, promptTokens: 5000, completionTokens: 300, estimated: 1 };

Deno.test("describeSpend() gives exact tokens, the cached share, costs, prices and the budget", () => {
  const report = {
    task: { ...TASK, completionTokens: 100 },
    session: SESSION,
    taskCost: 0.0021,
    sessionCost: 0.0123,
    pricing: { input: 2, cachedInput: 0.5, output: 8 },
    limits: { tokens: 100000, cost: 1 },
  };
  assertEquals(describeSpend(report).split("\n"), [
    "Last task: 1 request, 2100 tokens: prompt 2000 (1500 cached, 75%), completion 100, $0.0021",
    "Session:   3 requests, 5300 tokens: prompt 5000 (1500 cached, 30%), completion 300, " +
    "$0.0123 (1 without usage from the provider: estimated)",
    "Prices per million tokens: input $2, cached input $0.5, output $8",
    "Budget for this session: 100000 tokens (5300 spent), $1.00 ($0.0123 spent)",
  ]);
});

Deno.test("describeSpend() and spendParts() show tokens only without prices", () => {
  const report = { task: TASK, session: SESSION, limits: {} };
  assertEquals(describeSpend(report).split("\n").slice(2), [
    'Prices: none (add "pricing" to the provider file to see costs)',
    'Budget: none (--max-tokens, --max-cost, or "budget" in the provider file)',
  ]);
  assertEquals(spendParts(report), [
    "task 2k tokens, 75% cached",
    "session 5.3k tokens, 30% cached",
  ]);
});
