import { assert, assertEquals } from "@std/assert";
import { createTheme } from "../src/terminal/theme.ts";
import { changedLines } from "../src/tools/line_diff.ts";
import { type EditDetails, editDiff } from "../src/ui/tool_view.ts";

const PLAIN = createTheme(false);

/** The details the edit tool gives for replacing `before` with `after`. */
function editCall(before: string, after: string): EditDetails {
  return { kind: "edit", path: "big.ts", occurrences: 1, ...changedLines(before, after, 12) };
}

Deno.test("changedLines() leaves out the shared head and tail, keeping a line on each side", () => {
  assertEquals(changedLines("a\nb\nc\nz", "a\nB\nz", 10), {
    removed: ["b", "c"],
    added: ["B"],
    removedCount: 2,
    addedCount: 1,
  });
  assertEquals(changedLines("same", "same", 10), {
    removed: ["same"],
    added: ["same"],
    removedCount: 1,
    addedCount: 1,
  });
  assertEquals(changedLines("a\nb", "a\nb\nc", 10), {
    removed: ["b"],
    added: ["b", "c"],
    removedCount: 1,
    addedCount: 2,
  });
});

Deno.test("changedLines() returns at most `limit` lines a side and counts them all", () => {
  const before = Array.from({ length: 50 }, (_, i) => `old ${i}`).join("\n");
  const after = Array.from({ length: 30 }, (_, i) => `new ${i}`).join("\n");
  const diff = changedLines(`top\n${before}\nend`, `top\n${after}\nend`, 3);
  assertEquals(diff, {
    removed: ["old 0", "old 1", "old 2"],
    added: ["new 0", "new 1", "new 2"],
    removedCount: 50,
    addedCount: 30,
  });
});

Deno.test("editDiff() of a 2 MB edit changing only its last line takes milliseconds", () => {
  const lines = Array.from({ length: 100_000 }, (_, i) => `const value${i} = ${i};`);
  const before = lines.join("\n");
  const after = [...lines.slice(0, -1), "const last = 0;"].join("\n");
  assert(before.length > 2_000_000);
  const started = performance.now();
  const diff = editDiff(editCall(before, after), 80, PLAIN);
  const ms = performance.now() - started;
  assertEquals(diff, ["    - const value99999 = 99999;", "    + const last = 0;"]);
  assert(ms < 1000, `editDiff took ${ms.toFixed(0)} ms`);
});

Deno.test("editDiff() of a 10 MB single-line edit shows each side cut to the width", () => {
  const before = "x".repeat(5_000_000);
  const after = `${"y".repeat(5_000_000)}\x1b`;
  const started = performance.now();
  const diff = editDiff(editCall(before, after), 40, PLAIN);
  const ms = performance.now() - started;
  assertEquals(diff, [`    - ${"x".repeat(32)}…`, `    + ${"y".repeat(32)}…`]);
  assert(ms < 1000, `editDiff took ${ms.toFixed(0)} ms`);
});
