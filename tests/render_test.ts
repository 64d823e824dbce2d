import { assertEquals } from "@std/assert";
import { Renderer } from "../src/ui/renderer.ts";
import { PlainOutput } from "../src/ui/plain_output.ts";
import { TaskView } from "../src/ui/task_view.ts";
import { VirtualScreen } from "./support/screen.ts";

const ERROR = 'Cannot reach the model server at "http://127.0.0.1:11434/v1" (connection ' +
  'refused): is the server running, and is "baseURL" in provider.json right?';

/** A renderer drawing on a virtual terminal `width` columns wide. */
function onTerminal(width: number) {
  const terminal = new VirtualScreen(width, 12);
  const renderer = new Renderer({
    output: new TaskView({
      io: { write: (text) => terminal.write(text), columns: () => terminal.width },
      color: false,
      markdown: false,
      tickMs: 0,
    }),
    color: false,
    streamAnswer: true,
    screen: true,
  });
  return { terminal, renderer };
}

Deno.test("Renderer word-wraps its own lines on a terminal, so no word is broken", () => {
  const { terminal, renderer } = onTerminal(40);
  renderer.finish({ status: "failed", error: ERROR });
  const rows = terminal.lines();
  assertEquals(rows.join(" ").replace(/\s+/g, " "), `✗ ${ERROR}`);
  for (const row of rows) assertEquals(row.length <= 40, true, row);
  assertEquals(rows[0], "✗ Cannot reach the model server at");
});

Deno.test("Renderer leaves its lines whole on a pipe", () => {
  let written = "";
  const renderer = new Renderer({
    output: new PlainOutput({ answer: (t) => written += t, status: (t) => written += t }),
    color: false,
    streamAnswer: true,
    screen: false,
  });
  renderer.finish({ status: "failed", error: ERROR });
  assertEquals(written, `✗ ${ERROR}\n`);
});

Deno.test("Renderer cuts a tool line to the terminal's width instead of letting it wrap", () => {
  const { terminal, renderer } = onTerminal(30);
  const command = "for i in $(seq 1 20); do echo line $i; done";
  renderer.render({
    type: "tool_start",
    call: { id: "c", name: "bash", arguments: JSON.stringify({ command }) },
    description: { kind: "text", text: command },
  });
  assertEquals(terminal.lines()[0], "● bash for i in $(seq 1 20);…");
});
