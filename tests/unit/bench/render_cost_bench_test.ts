/** Smoke test of benchmark 6, so it cannot rot unnoticed. */
import { assert, assertEquals } from "@std/assert";
import { benchRenderCost, globAnswer } from "../../../bench/render_cost.ts";

Deno.test("globAnswer() gives the asked size in lines of the asked length", () => {
  const text = globAnswer(100, 30);
  assertEquals(text.length, 100);
  assertEquals(text.split("\n").slice(0, -1).map((line) => line.length), [29, 29, 29]);
  assert(text.startsWith("*.ts *.tsx *.js *_test.ts *.m\n"), text);
});

Deno.test("benchRenderCost() renders each size in both shapes through the task view", () => {
  const rows = benchRenderCost({ sizes: [4096], chunkBytes: 4, lineBytes: 1024, runs: 1 });
  assertEquals(rows.map((row) => [row.shape, row.bytes]), [["one line", 4096], ["lines", 4096]]);
  assert(rows.every((row) => row.ms.median > 0 && row.written > 4096), JSON.stringify(rows));
});
