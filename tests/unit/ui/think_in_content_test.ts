/**
 * 17.1 on a terminal: reasoning that arrives as `<think>…</think>` inside the content is shown
 * as reasoning (collapsed to one line once the answer starts), never as the answer.
 */
import { assertEquals, assertMatch } from "@std/assert";
import { assemble } from "../../../src/app/assemble.ts";
import { Renderer } from "../../../src/ui/renderer.ts";
import { TaskView } from "../../../src/ui/task_view.ts";
import { startFakeServer } from "../../support/fake_server.ts";
import { VirtualScreen } from "../../support/screen.ts";
import { sequence, sseReply } from "../../support/scripts.ts";

/** MiniMax M2's chunk shape (anomalyco/opencode issue #3555), thinking in `<think>` tags. */
function minimax(content: string, finish: string | null = null) {
  return {
    id: "05b1",
    object: "chat.completion.chunk",
    created: 1,
    model: "MiniMax-M2",
    choices: [{
      index: 0,
      delta: { role: "assistant", name: "MiniMax AI", content, "reasoning_content": "" },
      "finish_reason": finish,
    }],
  };
}

Deno.test("17.1 on a terminal <think> content shows as collapsed reasoning, then the answer", async () => {
  await using server = await startFakeServer({
    handler: sequence([sseReply([
      minimax("<think>\nThe user greets me.\nA short reply"),
      minimax(" is enough.\n</think>\n\nHi! How can I help?"),
      minimax("", "stop"),
    ])]),
  });
  const terminal = new VirtualScreen(60, 12);
  const renderer = new Renderer({
    output: new TaskView({
      io: { write: (text) => terminal.write(text), columns: () => 60, rows: () => 12 },
      color: false,
      markdown: true,
      tickMs: 0,
    }),
    color: false,
    streamAnswer: true,
  });
  const workspaceDir = await Deno.makeTempDir();
  const { agent } = await assemble({
    config: { baseURL: server.url, apiKey: "k", model: "m", contextWindow: 32000 },
    workspaceDir,
    maxSteps: 2,
    onEvent: renderer.sink,
    tools: () => [],
  });
  await Deno.remove(workspaceDir);
  renderer.startTask();
  const result = await agent.run("hi", AbortSignal.timeout(10_000));
  renderer.finish(result);
  assertEquals(result, { status: "done", answer: "Hi! How can I help?" });
  const lines = terminal.lines();
  assertEquals(lines.length, 2, lines.join("\n"));
  assertMatch(lines[0] ?? "", /^thinking… \d+ s$/);
  assertEquals(lines[1], "Hi! How can I help?");
});
