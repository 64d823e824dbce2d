/**
 * The task view on Ctrl+Z (issue 36.10): its live rows are erased and stay away while the
 * terminal is another program's, lines still print; on `fg` a header and the live rows come
 * back below what was printed.
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

Deno.test("TaskView.suspend erases the live rows and draws none until resume, which heads them", () => {
  const { screen, view } = open();
  view.start({ model: "m1" });
  view.dock(["> typing"], { row: 0, col: 8 });
  view.text("Done: one.\nStreaming");
  view.suspend();
  assertEquals(screen.lines(), ["Done: one."]);
  view.tick();
  view.text(" on");
  view.line("● bash ls");
  assertEquals(screen.lines(), ["Done: one.", "Streaming on", "● bash ls"]);
  view.resume(["› the task"]);
  assertEquals(screen.lines(), [
    "Done: one.",
    "Streaming on",
    "● bash ls",
    "› the task",
    "> typing",
    STATUS,
  ]);
  view.resume(["› the task"]);
  assertEquals(screen.lines().filter((line) => line === "› the task").length, 1, "once");
});

Deno.test("TaskView: a task that ends while suspended leaves the next one drawn as usual", () => {
  const { screen, view } = open();
  view.start({ model: "m1" });
  view.suspend();
  view.stop();
  view.start({ model: "m1" });
  assertEquals(screen.lines(), [STATUS]);
});
