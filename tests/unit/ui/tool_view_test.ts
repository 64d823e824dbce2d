import { assertEquals } from "@std/assert";
import { createTheme } from "../../../src/terminal/theme.ts";
import { commandResult, formatDuration, OutputTail, tailRows } from "../../../src/ui/tool_view.ts";

const PLAIN = createTheme(false);

function tailOf(...chunks: string[]): OutputTail {
  const tail = new OutputTail();
  for (const chunk of chunks) tail.push(chunk);
  return tail;
}

Deno.test("OutputTail keeps the last four lines and counts all, across chunk boundaries", () => {
  const tail = tailOf("one\ntw", "o\nthree\nfour\nfive\nsi", "x");
  assertEquals(tail.count, 6);
  assertEquals(tail.last(), ["three", "four", "five", "six"]);
});

Deno.test("OutputTail shows a progress bar's last state and escapes sequences", () => {
  const tail = tailOf("10%\r50%\r100%\r\n", "\x1b]0;x\x07done\r\n");
  assertEquals(tail.last(), ["100%", "^[]0;x^Gdone"]);
});

Deno.test("tailRows() indents, cuts to the width and dims the lines", () => {
  assertEquals(tailRows(tailOf("short\n", "x".repeat(50)), 20, PLAIN), [
    "    short",
    `    ${"x".repeat(14)}…`,
  ]);
  assertEquals(tailRows(tailOf("a\n"), 20, createTheme(true)), ["\x1b[2m    a\x1b[22m"]);
});

Deno.test("commandResult() gives mark, exit, line count, duration and the last lines", () => {
  const tail = tailOf(Array.from({ length: 312 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
  assertEquals(commandResult({ ok: true, summary: "exit 0", ms: 1400, tail }, 80, PLAIN), [
    "  ✓ exit 0 · 312 lines · 1.4 s",
    "    … 308 earlier lines",
    "    line 309",
    "    line 310",
    "    line 311",
    "    line 312",
  ]);
  assertEquals(
    commandResult(
      { ok: false, summary: "exit 127", ms: 30, tail: tailOf("x: not found\n") },
      80,
      PLAIN,
    ),
    ["  ✗ exit 127 · 1 line · 0.0 s", "    x: not found"],
  );
});

Deno.test("formatDuration() reads in seconds, then minutes", () => {
  assertEquals([400, 12_500, 125_000].map(formatDuration), ["0.4 s", "12.5 s", "2m 05s"]);
});
