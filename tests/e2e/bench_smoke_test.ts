/**
 * Smoke test of `deno task bench`: one tiny per-step overhead run through the real bench
 * code (worker server, timing proxy, child process), so the bench cannot rot unnoticed.
 */
import { assert, assertEquals } from "@std/assert";
import { startBenchServer } from "../../bench/bench_server.ts";
import { benchLongSession } from "../../bench/long_session.ts";
import { benchStepOverhead } from "../../bench/step_overhead.ts";

Deno.test("benchStepOverhead() measures a short session outside the server", async () => {
  await using server = await startBenchServer("answer");
  const rows = await benchStepOverhead(server, {
    historySizes: [100],
    recentMessages: 84,
    runs: 1,
    steps: 2,
    warmupSteps: 1,
  });
  assertEquals(rows.map((row) => [row.historyMessages, row.memoryMessages]), [[100, 85]]);
  const [row] = rows;
  assert(row && row.overheadMs.median > 0 && row.serverMs.median > 0, JSON.stringify(row));
});

Deno.test("benchLongSession() recalls every fact of a short session and measures its cache use", async () => {
  const [row] = await benchLongSession({
    windows: [5200],
    tasks: 6,
    maxOutputTokens: 500,
    fileBytes: () => 2500,
  });
  assert(row, "no row");
  assertEquals([row.factsRecalled, row.facts, row.rejected, row.failedTasks], [6, 6, 0, 0]);
  assert(row.summaryCalls >= 1, "no compaction in a 5200 window");
  assert(row.cache.cachedTokens > 0 && row.cache.cachedTokens < row.cache.inputTokens);
  assertEquals(row.totalPromptTokens, row.cache.inputTokens);
});
