/**
 * Smoke test of `deno task bench`: one tiny per-step overhead run through the real bench
 * code (worker server, timing proxy, child process), so the bench cannot rot unnoticed.
 */
import { assert, assertEquals } from "@std/assert";
import { startBenchServer } from "../bench/bench_server.ts";
import { benchStepOverhead } from "../bench/step_overhead.ts";

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
