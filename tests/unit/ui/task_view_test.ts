import { assertEquals } from "@std/assert";
import { TaskView } from "../../../src/ui/task_view.ts";
import { VirtualScreen } from "../../support/screen.ts";

function open(
  options: { width?: number; markdown?: boolean; reasoning?: "collapsed" | "full" } = {},
) {
  const screen = new VirtualScreen(options.width ?? 40, 12);
  let now = 0;
  const writes: string[] = [];
  const view = new TaskView({
    io: {
      write: (text) => {
        writes.push(text);
        screen.write(text);
      },
      columns: () => screen.width,
      rows: () => screen.height,
    },
    color: false,
    markdown: options.markdown ?? true,
    ...(options.reasoning ? { reasoning: options.reasoning } : {}),
    now: () => now,
    tickMs: 0,
  });
  return { screen, view, writes, advance: (ms: number) => now += ms };
}

const STATUS = { model: "m1", contextTokens: 5000, contextWindow: 100_000 };

Deno.test("TaskView streams a rendered answer above the status line and leaves it on stop", () => {
  const { screen, view, advance } = open({ width: 70 });
  view.start(STATUS);
  assertEquals(screen.lines(), [
    "⠋ thinking · 0s · Ctrl+C to interrupt · 5k / 100k tokens (5%) · m1",
  ]);
  view.text("# Plan\nFirst **do** this, then th");
  advance(2000);
  view.tick();
  assertEquals(screen.lines(), [
    "# Plan",
    "First **do** this, then th",
    "⠴ thinking · 2s · Ctrl+C to interrupt · 5k / 100k tokens (5%) · m1",
  ]);
  view.text("at.\n");
  view.stop();
  assertEquals(screen.lines(), ["# Plan", "First **do** this, then that."]);
  assertEquals(screen.cursor, { row: 2, col: 0 });
});

Deno.test("TaskView prints tool lines after the answer so far and keeps the status below", () => {
  const { screen, view } = open({ width: 70 });
  view.start(STATUS);
  view.text("Let me look.");
  view.activity("running bash");
  view.line("● bash ls");
  view.tail(["a.txt", "b.txt"]);
  assertEquals(screen.lines(), [
    "Let me look.",
    "● bash ls",
    "a.txt",
    "b.txt",
    "⠋ running bash · 0s · Ctrl+C to interrupt · 5k / 100k tokens (5%)",
  ]);
  view.tail([]);
  view.line("  ✓ exit 0");
  view.stop();
  assertEquals(screen.lines(), ["Let me look.", "● bash ls", "  ✓ exit 0"]);
});

Deno.test("TaskView without markdown prints the text as written, sanitized", () => {
  const { screen, view } = open({ markdown: false });
  view.start(STATUS);
  view.text("# not a heading **raw**\n\x1b]0;title\x07x\r\n");
  view.stop();
  assertEquals(screen.lines(), ["# not a heading **raw**", "^[]0;title^Gx"]);
  assertEquals(screen.unknown, []);
});

Deno.test("TaskView re-wraps the open line of the answer after a resize", () => {
  const { screen, view } = open({ width: 30 });
  view.start({ model: "m" });
  view.text("words that keep coming and coming without end");
  assertEquals(screen.lines().slice(0, 2), ["words that keep coming and", "coming without end"]);
  screen.resize(20);
  view.resize();
  assertEquals(screen.lines(), [
    "words that keep",
    "coming and coming",
    "without end",
    "⠋ thinking · 0s",
  ]);
});

Deno.test("TaskView redraws only the status row while the answer's open line is unchanged", () => {
  const { view, writes, advance } = open({ width: 70 });
  view.start(STATUS);
  view.text("an open line of text");
  const before = writes.length;
  advance(80);
  view.tick();
  assertEquals(writes.slice(before), [
    "\r\x1b[J⠙ thinking · 0s · Ctrl+C to interrupt · 5k / 100k tokens (5%) · m1\r",
  ]);
});

Deno.test("TaskView prints lines directly between tasks", () => {
  const { screen, view } = open();
  view.line("Resumed session x");
  view.line("two\nlines");
  assertEquals(screen.lines(), ["Resumed session x", "two", "lines"]);
});

Deno.test("TaskView shows reasoning in a few live rows, then one line once the answer starts", () => {
  const { screen, view, advance } = open({ width: 70, markdown: false });
  view.start(STATUS);
  view.reasoning("step one\nstep two\nstep three\nstep four\nstep fi");
  assertEquals(screen.lines().slice(0, 3), ["step three", "step four", "step fi"]);
  advance(12_000);
  view.text("Answer.\n");
  view.stop();
  assertEquals(screen.lines(), ["thinking… 12 s", "Answer."]);
});

Deno.test("TaskView with reasoning full keeps every reasoning row", () => {
  const { screen, view } = open({ width: 70, markdown: false, reasoning: "full" });
  view.start(STATUS);
  view.reasoning("step one\nstep two\n");
  view.text("Answer.\n");
  view.stop();
  assertEquals(screen.lines(), ["step one", "step two", "Answer."]);
});
