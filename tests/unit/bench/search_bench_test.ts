/** Smoke test of benchmark 8, so it cannot rot unnoticed. */
import { assert, assertEquals } from "@std/assert";
import { benchSearchCost, searchCostSection } from "../../../bench/search_cost.ts";

Deno.test("benchSearchCost() times grep, glob and ls on a generated tree", async () => {
  const options = { files: 30, filesPerDir: 10, runs: 2 };
  const result = await benchSearchCost(options);
  assertEquals([result.files, result.grepRareMs.runs, result.lsMs.runs], [30, 2, 2]);
  assert(searchCostSection(options, result).join("\n").includes("## 8. Search tools"));
});
