/** The long-session bench's check of a run against issue 34's goals. */
import { assertEquals } from "@std/assert";
import type { LongSessionRow } from "../../../bench/long_session.ts";
import { goalLines } from "../../../bench/long_session_report.ts";

function row(contextWindow: number, share: number, cost: number, recalled = 30): LongSessionRow {
  return {
    contextWindow,
    threshold: contextWindow - 4000,
    factsRecalled: recalled,
    facts: 30,
    failedTasks: 0,
    rejected: 0,
    summaryCalls: 1,
    taskRequests: 61,
    minTaskRequestsBetweenSummaries: undefined,
    requestsWithCutOutputs: 0,
    warnings: 0,
    peakPromptTokens: 1,
    totalPromptTokens: 1,
    cache: {
      requests: 62,
      inputTokens: 1,
      cachedTokens: 1,
      cacheableShare: share,
      firstSeenTokens: 0,
      weightedCost: cost,
    },
  };
}

Deno.test("goalLines() marks each goal of each window met or not met", () => {
  assertEquals(goalLines([row(16_000, 0.947, 68_396), row(32_000, 0.95, 124_000, 29)]), [
    "Against the goals of issue 34:",
    "",
    "- 16,000: facts 30/30 met, rejected 0 met, cacheable share 94.7 % (goal ≥ 95.0 %) NOT met, " +
    "cost 68,396 (goal ≤ 56,000) NOT met",
    "- 32,000: facts 29/30 NOT met, rejected 0 met, cacheable share 95.0 % (goal ≥ 95.0 %) met, " +
    "cost 124,000 (goal ≤ 124,000) met",
  ]);
});
