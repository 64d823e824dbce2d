import { assertEquals } from "@std/assert";
import { LiveRegion } from "../../../src/terminal/live_region.ts";
import {
  formatContext,
  formatElapsed,
  formatStatusLine,
  formatTokens,
  type StatusState,
} from "../../../src/ui/status_line.ts";
import { createTheme } from "../../../src/terminal/theme.ts";
import { textWidth } from "../../../src/terminal/width.ts";
import { VirtualScreen } from "../../support/screen.ts";

const PLAIN = createTheme(false);
const STATE: StatusState = {
  activity: "thinking",
  elapsedMs: 12_345,
  model: "qwen2.5-coder:14b",
  contextTokens: 12_300,
  contextWindow: 131_072,
};

Deno.test("formatStatusLine() shows spinner, activity, time, interrupt hint, context and model", () => {
  assertEquals(
    formatStatusLine(STATE, 120, PLAIN),
    "⠼ thinking · 12s · Ctrl+C to interrupt · 12.3k / 131k tokens (9%) · qwen2.5-coder:14b",
  );
});

Deno.test("formatStatusLine() drops the model, then context, then shortens the hint to fit", () => {
  assertEquals(
    formatStatusLine(STATE, 80, PLAIN),
    "⠼ thinking · 12s · Ctrl+C to interrupt · 12.3k / 131k tokens (9%)",
  );
  assertEquals(formatStatusLine(STATE, 50, PLAIN), "⠼ thinking · 12s · Ctrl+C to interrupt");
  assertEquals(formatStatusLine(STATE, 21, PLAIN), "⠼ thinking · 12s · ^C");
  assertEquals(formatStatusLine(STATE, 8, PLAIN), "⠼ think…");
  for (const width of [5, 10, 30, 45, 60, 90]) {
    assertEquals(textWidth(formatStatusLine(STATE, width, PLAIN)) <= width, true, `${width}`);
  }
});

Deno.test("formatStatusLine() animates with time and leaves out unknown context", () => {
  const { contextTokens: _, ...unknown } = STATE;
  assertEquals(
    formatStatusLine({ ...unknown, elapsedMs: 80 }, 80, PLAIN),
    "⠙ thinking · 0s · Ctrl+C to interrupt · qwen2.5-coder:14b",
  );
  assertEquals(formatStatusLine({ ...unknown, elapsedMs: 0 }, 80, PLAIN).slice(0, 1), "⠋");
});

Deno.test("formatStatusLine() colours only the spinner and the details, and shows controls in names", () => {
  const line = formatStatusLine(
    { ...STATE, activity: "running bash", model: "m\x1b]0;x\x07" },
    200,
    createTheme(true),
  );
  assertEquals(
    line,
    "\x1b[36m⠼\x1b[39m running bash\x1b[2m · 12s · Ctrl+C to interrupt · 12.3k / 131k tokens (9%) · m^[]0;x^G\x1b[22m",
  );
});

Deno.test("formatStatusLine() shows plan mode and the todo count after the activity, kept longest", () => {
  const marked = { ...STATE, marks: ["plan mode", "todo 2/5"] };
  assertEquals(
    formatStatusLine(marked, 100, PLAIN),
    "⠼ thinking · plan mode · todo 2/5 · 12s · Ctrl+C to interrupt · 12.3k / 131k tokens (9%)",
  );
  assertEquals(
    formatStatusLine(marked, 79, PLAIN),
    "⠼ thinking · plan mode · todo 2/5 · 12s · Ctrl+C to interrupt",
  );
  assertEquals(formatStatusLine(marked, 40, PLAIN), "⠼ thinking · plan mode · todo 2/5 · 12s");
  assertEquals(formatStatusLine(marked, 30, PLAIN), "⠼ thinking · 12s · ^C");
  assertEquals(
    formatStatusLine(marked, 80, createTheme(true)),
    "\x1b[36m⠼\x1b[39m thinking · \x1b[33mplan mode\x1b[39m · \x1b[33mtodo 2/5\x1b[39m" +
      "\x1b[2m · 12s · Ctrl+C to interrupt\x1b[22m",
  );
});

Deno.test("formatTokens(), formatContext() and formatElapsed() read as a person would write them", () => {
  assertEquals([950, 1000, 12_345, 128_000, 1_048_576].map(formatTokens), [
    "950",
    "1k",
    "12.3k",
    "128k",
    "1.05M",
  ]);
  assertEquals(formatContext(6_000, 128_000), "6k / 128k tokens (5%)");
  assertEquals([7_900, 65_000, 3_725_000].map(formatElapsed), ["7s", "1m 05s", "1h 02m"]);
});

Deno.test("LiveRegion redraws its rows in place and prints lines above them", () => {
  const screen = new VirtualScreen(30, 10);
  const region = new LiveRegion({
    write: (text) => screen.write(text),
    columns: () => screen.width,
  });
  screen.write("before\n");
  region.set(["⠋ thinking · 0s"]);
  region.set(["⠙ thinking · 1s"]);
  assertEquals(screen.lines(), ["before", "⠙ thinking · 1s"]);
  region.print("answer line 1\nanswer line 2\n");
  region.set(["open line", "⠹ thinking · 2s"]);
  assertEquals(screen.lines(), [
    "before",
    "answer line 1",
    "answer line 2",
    "open line",
    "⠹ thinking · 2s",
  ]);
  region.clear();
  assertEquals(screen.lines(), ["before", "answer line 1", "answer line 2"]);
  assertEquals(screen.cursor, { row: 3, col: 0 });
});

Deno.test("LiveRegion erases full-width rows and rows the terminal reflowed after a resize", () => {
  const screen = new VirtualScreen(20, 10);
  const region = new LiveRegion({
    write: (text) => screen.write(text),
    columns: () => screen.width,
  });
  region.set(["x".repeat(20), "y".repeat(20)]);
  region.set(["short"]);
  assertEquals(screen.lines(), ["short"]);
  region.set(["a".repeat(18), "status"]);
  screen.resize(10);
  region.set(["after resize"]);
  assertEquals(screen.lines(), ["after resi", "ze"]);
});
