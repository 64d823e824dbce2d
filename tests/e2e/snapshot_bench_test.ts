/** Smoke test of benchmark 7, so it cannot rot unnoticed. */
import { assert, assertEquals } from "@std/assert";
import { benchSnapshotCost, snapshotCostSection } from "../../bench/snapshot_cost.ts";

Deno.test("benchSnapshotCost() times tasks on an unchanged tree and the growth of a change", async () => {
  const options = { files: 40, filesPerDir: 10, fileBytes: 1000, tasks: 2, changedFiles: 3 };
  const result = await benchSnapshotCost(options);
  assertEquals([result.files, result.treeBytes, result.changedBytes], [40, 40_000, 3000]);
  assert(result.firstStateBytes >= result.treeBytes, "every file stored once");
  assert(result.unchangedGrowthBytes < 1000, `unchanged tasks grew ${result.unchangedGrowthBytes}`);
  assert(result.changedGrowthBytes >= 3000, "the changed files are stored");
  assertEquals(result.perTaskMs.runs, 2);
  assert(snapshotCostSection(options, result).join("\n").includes("## 7. Undo"));
});
