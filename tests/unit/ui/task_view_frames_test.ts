/**
 * TaskView's frame limit: streamed text redraws the live rows at most once a frame while
 * the timer runs, so a fast stream of small chunks costs its own length.
 *
 * @module
 */
import { assert, assertEquals } from "@std/assert";
import { TaskView } from "../../../src/ui/task_view.ts";
import { VirtualScreen } from "../../support/screen.ts";

const STATUS = { model: "m1" };

Deno.test("TaskView draws streamed text at most once a frame; the next tick draws the rest", () => {
  const screen = new VirtualScreen(40, 8);
  let now = 0;
  let writes = 0;
  const view = new TaskView({
    io: {
      write: (text) => {
        writes++;
        screen.write(text);
      },
      columns: () => screen.width,
      rows: () => screen.height,
    },
    color: false,
    markdown: true,
    now: () => now,
    // A timer that never fires during the test: the test ticks by hand.
    tickMs: 3_600_000,
  });
  try {
    view.start(STATUS, "writing");
    const drawn = writes;
    for (const word of ["one", " two", " three"]) view.text(word);
    assertEquals(writes, drawn, "no redraw within the frame");
    view.tick();
    assertEquals(screen.lines()[0], "one two three");
    now += 40;
    view.text(" four");
    assertEquals(screen.lines()[0], "one two three four");
    view.text(" five\nsix");
    assertEquals(screen.lines().slice(0, 2), ["one two three four five", "six"]);
  } finally {
    view.stop();
  }
  assertEquals(screen.lines(), ["one two three four five", "six"]);
});

Deno.test("TaskView streams a 1 MB answer of unmatched `*` in linear time", () => {
  let written = 0;
  const view = new TaskView({
    io: { write: (text) => written += text.length, columns: () => 100, rows: () => 40 },
    color: true,
    markdown: true,
  });
  const words = ["*.ts", "*.tsx", "*.js", "*_test.ts", "*.md"];
  const line = Array.from({ length: 200_000 }, (_, i) => words[i % 5]).join(" ");
  const started = performance.now();
  view.start(STATUS, "writing");
  for (let at = 0; at < line.length; at += 4) view.text(line.slice(at, at + 4));
  view.stop();
  const ms = performance.now() - started;
  assert(line.length > 1_000_000 && written > line.length);
  assert(ms < 10_000, `took ${ms.toFixed(0)} ms`);
});
