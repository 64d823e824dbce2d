/**
 * The renderer's own lines on a terminal (issue 19.7): an empty reply is said, a task that got
 * no reply gets no context line, and wrapped result and compaction lines are indented.
 */
import { assertEquals } from "@std/assert";
import { Renderer } from "../../../src/ui/renderer.ts";
import { TaskView } from "../../../src/ui/task_view.ts";
import { VirtualScreen } from "../../support/screen.ts";

const CONTEXT = () => ({ estimatedTokens: 1200, contextWindow: 32000 });

function onTerminal(width: number) {
  const terminal = new VirtualScreen(width, 24);
  const renderer = new Renderer({
    output: new TaskView({
      io: { write: (text) => terminal.write(text), columns: () => terminal.width },
      color: false,
      markdown: true,
      tickMs: 0,
    }),
    color: false,
    streamAnswer: true,
    context: CONTEXT,
  });
  return { terminal, renderer };
}

Deno.test("Renderer says that a reply came empty instead of showing nothing", () => {
  const { terminal, renderer } = onTerminal(60);
  renderer.startTask();
  renderer.render({ type: "thinking" });
  renderer.finish({ status: "done", answer: "" });
  assertEquals(terminal.lines(), ["(empty reply)", "context 1.2k / 32k tokens (4%)"]);
});

Deno.test("Renderer prints no context line after a task whose request got no reply", () => {
  const { terminal, renderer } = onTerminal(60);
  renderer.startTask();
  renderer.render({ type: "thinking" });
  renderer.finish({ status: "failed", error: "Cannot reach the model server" });
  assertEquals(terminal.lines(), ["✗ Cannot reach the model server"]);
});

Deno.test("Renderer indents the rows of a wrapped tool result and compaction line", () => {
  const { terminal, renderer } = onTerminal(40);
  const call = { id: "c", name: "edit_file", arguments: "{}" };
  renderer.startTask();
  renderer.render({ type: "tool_start", call, description: { kind: "text", text: "a.ts" } });
  renderer.render({
    type: "tool_end",
    call,
    isError: true,
    summary: 'Cannot edit "a.ts": old_string was not found; read the file again',
  });
  renderer.render({
    type: "compaction_start",
    reason: "automatic",
    estimatedTokens: 30000,
    contextWindow: 32000,
  });
  renderer.endTask();
  assertEquals(terminal.lines(), [
    "● edit_file a.ts",
    '  ✗ Cannot edit "a.ts": old_string was',
    "    not found; read the file again",
    "Context approaching limit (approx 30000",
    "  / 32000 tokens), compressing earlier",
    "  messages...",
  ]);
});

Deno.test("Renderer wraps a queued line where it joins by word, under itself", () => {
  const { terminal, renderer } = onTerminal(40);
  renderer.userLine("a queued message that is quite long and wraps around\nsecond line");
  assertEquals(terminal.lines(), [
    "› a queued message that is quite long",
    "  and wraps around",
    "  second line",
  ]);
});
