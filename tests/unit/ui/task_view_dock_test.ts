/**
 * The task view keeps the input (and the queued lines) between the streamed task and the
 * status line while a task runs, with the terminal's cursor in the input (issue 19.8).
 */
import { assertEquals } from "@std/assert";
import { TaskView } from "../../../src/ui/task_view.ts";
import { VirtualScreen } from "../../support/screen.ts";

function open() {
  const screen = new VirtualScreen(60, 12);
  const view = new TaskView({
    io: { write: (text) => screen.write(text), columns: () => 60, rows: () => 12 },
    color: false,
    markdown: true,
    now: () => 0,
    tickMs: 0,
  });
  return { screen, view };
}

const STATUS = "⠋ thinking · 0s · Ctrl+C to interrupt · m1";

Deno.test("TaskView keeps the docked input above the status line, the cursor in it", () => {
  const { screen, view } = open();
  view.start({ model: "m1" });
  view.dock(["queued: also the tests", "> typing her"], { row: 1, col: 12 });
  view.text("First line of the answer.\nSecond li");
  assertEquals(screen.lines(), [
    "First line of the answer.",
    "Second li",
    "queued: also the tests",
    "> typing her",
    STATUS,
  ]);
  assertEquals(screen.cursor, { row: 3, col: 12 });
  view.line("● bash ls");
  view.dock(["> typing here"], { row: 0, col: 13 });
  assertEquals(screen.lines(), [
    "First line of the answer.",
    "Second li",
    "● bash ls",
    "> typing here",
    STATUS,
  ]);
  assertEquals(screen.cursor, { row: 3, col: 13 });
  view.stop();
  assertEquals(screen.lines(), ["First line of the answer.", "Second li", "● bash ls"]);
  assertEquals(screen.cursor, { row: 3, col: 0 });
});

Deno.test("TaskView clears the screen for Ctrl+L and draws the live rows at its top", () => {
  const { screen, view } = open();
  view.start({ model: "m1" });
  view.line("earlier output");
  view.dock(["> x"], { row: 0, col: 3 });
  view.clearScreen();
  assertEquals(screen.lines().slice(-2), ["> x", STATUS]);
  assertEquals(screen.cursor.col, 3);
});
