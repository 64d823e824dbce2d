import { assert, assertEquals } from "@std/assert";
import { createTheme } from "../../../src/terminal/theme.ts";
import { changedLines, editHunk } from "../../../src/tools/line_diff.ts";
import { type EditDetails, editDiff } from "../../../src/ui/tool_view.ts";

const PLAIN = createTheme(false);
const LIMITS = { lines: 12, context: 2, lineChars: 4096 };

/** The details the edit tool gives for replacing the first `from` in `text` with `to`. */
function editCall(text: string, from: string, to: string): EditDetails {
  const start = text.indexOf(from);
  return {
    kind: "edit",
    path: "big.ts",
    occurrences: 1,
    ...editHunk(text, { start, from, to }, LIMITS),
  };
}

Deno.test("changedLines() leaves out the shared head and tail, keeping a line on one side", () => {
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
    removed: [],
    added: ["c"],
    removedCount: 0,
    addedCount: 1,
  });
  assertEquals(changedLines("a\nb\nc", "a\nc", 10), {
    removed: ["b"],
    added: [],
    removedCount: 1,
    addedCount: 0,
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

Deno.test("editHunk() gives the whole lines of a change within a line, numbered, with context", () => {
  const text = 'a\nb\nconsole.log("Hello, " + name);\nc\nd\ne\n';
  assertEquals(
    editHunk(text, { start: text.indexOf('"Hello, "'), from: '"Hello, "', to: '"Hi, "' }, LIMITS),
    {
      removed: ['console.log("Hello, " + name);'],
      added: ['console.log("Hi, " + name);'],
      removedCount: 1,
      addedCount: 1,
      firstLine: 3,
      before: ["a", "b"],
      after: ["c", "d"],
    },
  );
});

Deno.test("editHunk() keeps the shared tail of a two-line edit as whole lines", () => {
  const text = "top\nlet x = old(1);\nlet y = old(2);\nend\n";
  const hunk = editHunk(text, {
    start: text.indexOf("old(1);\nlet y = old"),
    from: "old(1);\nlet y = old",
    to: "fresh(1);\nlet y = fresh",
  }, LIMITS);
  assertEquals(hunk, {
    removed: ["let x = old(1);", "let y = old(2);"],
    added: ["let x = fresh(1);", "let y = fresh(2);"],
    removedCount: 2,
    addedCount: 2,
    firstLine: 2,
    before: ["top"],
    after: ["end"],
  });
});

Deno.test("editHunk() at the start and end of a file, and in a CRLF file", () => {
  assertEquals(editHunk("\nx", { start: 1, from: "x", to: "y" }, LIMITS), {
    removed: ["x"],
    added: ["y"],
    removedCount: 1,
    addedCount: 1,
    firstLine: 2,
    before: [""],
    after: [],
  });
  assertEquals(editHunk("a\r\nb\r\nc\r\n", { start: 3, from: "b", to: "B" }, LIMITS), {
    removed: ["b"],
    added: ["B"],
    removedCount: 1,
    addedCount: 1,
    firstLine: 2,
    before: ["a"],
    after: ["c"],
  });
});

Deno.test("editDiff() shows whole changed lines, numbered, with dim context, like pi", () => {
  const text = 'a\nb\nconsole.log("Hello, " + name);\nc\nd\ne\n';
  assertEquals(editDiff(editCall(text, '"Hello, "', '"Hi, "'), 80, PLAIN), [
    "     1 a",
    "     2 b",
    '    -3 console.log("Hello, " + name);',
    '    +3 console.log("Hi, " + name);',
    "     4 c",
    "     5 d",
  ]);
  assertEquals(editDiff(editCall("x", "x", "y"), 80, createTheme(true)), [
    "\x1b[31m    -1 x\x1b[39m",
    "\x1b[32m    +1 y\x1b[39m",
  ]);
});

Deno.test("editDiff() caps long diffs, notes further replacements and shows controls", () => {
  const many = Array.from({ length: 20 }, (_, i) => `n${i}`).join("\n");
  const diff = editDiff(
    { ...editCall("old\x1b[2J\nz", "old\x1b[2J", many), occurrences: 3 },
    80,
    PLAIN,
  );
  assertEquals(diff.length, 13);
  assertEquals(diff[0], "    - 1 old^[[2J");
  assertEquals(diff.slice(-2), ["    … 10 more lines", "    (the first of 3 replacements)"]);
});

Deno.test("editDiff() of a 2 MB edit changing only its last line takes milliseconds", () => {
  const lines = Array.from({ length: 100_000 }, (_, i) => `const value${i} = ${i};`);
  const text = lines.join("\n");
  assert(text.length > 2_000_000);
  const started = performance.now();
  const diff = editDiff(editCall(text, "const value99999 = 99999;", "const last = 0;"), 80, PLAIN);
  const ms = performance.now() - started;
  assertEquals(diff, [
    "      99998 const value99997 = 99997;",
    "      99999 const value99998 = 99998;",
    "    -100000 const value99999 = 99999;",
    "    +100000 const last = 0;",
  ]);
  assert(ms < 1000, `editDiff took ${ms.toFixed(0)} ms`);
});

Deno.test("editDiff() of a 10 MB single-line edit shows each side cut to the width", () => {
  const text = "x".repeat(5_000_000);
  const started = performance.now();
  const diff = editDiff(editCall(text, text, `${"y".repeat(5_000_000)}\x1b`), 40, PLAIN);
  const ms = performance.now() - started;
  assertEquals(diff, [`    -1 ${"x".repeat(31)}…`, `    +1 ${"y".repeat(31)}…`]);
  assert(ms < 1000, `editDiff took ${ms.toFixed(0)} ms`);
});

Deno.test("editDiff() of an insertion shows only the added lines between their neighbours", () => {
  assertEquals(editDiff(editCall("a\nb\nz\n", "b", "b\nc"), 80, PLAIN), [
    "     1 a",
    "     2 b",
    "    +3 c",
    "     4 z",
  ]);
});
