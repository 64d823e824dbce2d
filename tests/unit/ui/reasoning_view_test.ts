/**
 * A reasoning model's thinking on a terminal (issue 19.1): lines longer than the terminal,
 * as real models write them, leave no rows behind when the preview collapses, and
 * `--show-reasoning` word-wraps them.
 */
import { assert, assertEquals } from "@std/assert";
import { TaskView } from "../../../src/ui/task_view.ts";
import { VirtualScreen } from "../../support/screen.ts";

const PARAGRAPH = "The user wants me to look at the file and decide what to do about the " +
  "failing test, which seems to involve the parser. ";

/** A view on an 80×24 virtual terminal that streams six paragraphs of reasoning word by word. */
function streamThinking(reasoning: "collapsed" | "full") {
  const screen = new VirtualScreen(80, 24);
  let now = 0;
  const view = new TaskView({
    io: { write: (text) => screen.write(text), columns: () => 80, rows: () => 24 },
    color: false,
    markdown: true,
    reasoning,
    now: () => now,
    tickMs: 0,
  });
  view.start({ model: "m" });
  for (let line = 0; line < 6; line++) {
    for (const word of `${PARAGRAPH.repeat(2)}\n`.split(/(?<= )/)) {
      view.reasoning(word);
      now += 50;
      view.tick();
    }
  }
  now += 3000;
  view.text("Answer here.\n");
  view.stop();
  return screen;
}

Deno.test("TaskView collapses long reasoning lines at 80 columns to one line, leaving no rows behind", () => {
  assertEquals(streamThinking("collapsed").lines(), ["thinking… 18 s", "Answer here."]);
});

Deno.test("TaskView with reasoning full word-wraps each line to the width", () => {
  const lines = streamThinking("full").lines();
  assertEquals(lines.at(-1), "Answer here.");
  const thinking = lines.slice(0, -1);
  for (const row of thinking) assert(row.length < 80, row);
  assertEquals(
    thinking.join(" ").replace(/ +/g, " "),
    `${PARAGRAPH.repeat(2).trim()} `.repeat(6).trim(),
  );
});
