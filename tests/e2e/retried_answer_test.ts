/**
 * 17.8: an answer abandoned for a retry is never shown twice. On a terminal it is taken back
 * (one retry line stands in place meanwhile); on a pipe an answer is written once its reply
 * is complete. Through the real HTTP path, stream reader, agent and renderer, and end to end.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { assemble } from "../../src/app/assemble.ts";
import { Renderer } from "../../src/ui/renderer.ts";
import { PlainOutput } from "../../src/ui/plain_output.ts";
import { TaskView } from "../../src/ui/task_view.ts";
import { type Reply, startFakeServer } from "../support/fake_server.ts";
import { createTempProject } from "../support/project.ts";
import { screenLines, startInTmux, typeTask, waitForPrompt } from "../support/repl_pane.ts";
import { VirtualScreen } from "../support/screen.ts";
import { sequence, sseReply, text } from "../support/scripts.ts";
import { ENV, KEY, provider } from "../support/sessions.ts";
import { tmuxTest } from "../support/programs.ts";

/**
 * OpenRouter's mid-stream error: HTTP 200, some text, then a chunk with a top-level `error`
 * and finish_reason "error" (https://openrouter.ai/docs/api/reference/streaming, "Handling
 * errors during streaming").
 */
function brokenReply(partial: string): Reply {
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra = {}) => ({
    id: "gen-1",
    object: "chat.completion.chunk",
    created: 1,
    model: "m",
    choices: [{ index: 0, delta, "finish_reason": finish }],
    ...extra,
  });
  return sseReply([
    chunk({ role: "assistant", content: partial }, null),
    chunk({ content: "" }, "error", {
      error: { code: "server_error", message: "Provider disconnected unexpectedly" },
    }),
  ]);
}

/** An agent streaming through a renderer onto a virtual terminal, or into a pipe's text. */
async function run(replies: Reply[], screen: { width: number; height: number } | undefined) {
  const server = await startFakeServer({ handler: sequence(replies) });
  const terminal = new VirtualScreen(screen?.width ?? 80, screen?.height ?? 24);
  const piped = { text: "" };
  const write = (chunk: string) => piped.text += chunk;
  const output = screen
    ? new TaskView({
      io: {
        write: (chunk) => terminal.write(chunk),
        columns: () => terminal.width,
        rows: () => terminal.height,
      },
      color: false,
      markdown: true,
      tickMs: 0,
    })
    : new PlainOutput({ answer: write, status: write });
  const renderer = new Renderer({ output, color: false, streamAnswer: true });
  const atRetries: string[][] = [];
  const workspaceDir = await Deno.makeTempDir();
  const { agent } = await assemble({
    config: { baseURL: server.url, apiKey: "k", model: "m", contextWindow: 32000 },
    workspaceDir,
    maxSteps: 3,
    onEvent: renderer.sink,
    tools: () => [],
    chat: {
      maxRetries: 4,
      delay: () => (atRetries.push(terminal.lines()), Promise.resolve()),
    },
  });
  await Deno.remove(workspaceDir);
  try {
    renderer.startTask();
    const result = await agent.run("hi", AbortSignal.timeout(10_000));
    renderer.finish(result);
    return { result, lines: terminal.lines(), atRetries, piped: piped.text };
  } finally {
    await server.close();
  }
}

Deno.test("17.8 on a terminal the partial answer of a retried reply is taken back", async () => {
  const partial = "Half an answer\n\nthat spans a few lines and then";
  const { result, lines, atRetries } = await run(
    [brokenReply(partial), brokenReply(partial), brokenReply(partial), text("Hello there.")],
    { width: 80, height: 12 },
  );
  assertEquals(result, { status: "done", answer: "Hello there." });
  assertEquals(lines, ["Hello there."]);
  assertEquals(atRetries.length, 3);
  for (const [attempt, shown] of atRetries.entries()) {
    // While it waits, the screen holds one retry line (and the status line), no partial text.
    const retries = shown.filter((line) => line.startsWith("↻"));
    assertEquals(retries.length, 1, shown.join("\n"));
    assertMatch(
      retries[0] ?? "",
      new RegExp(
        `^↻ The provider failed mid-reply: .*; retrying in \\d\\.\\d s \\(attempt ${
          attempt + 1
        }\\)$`,
      ),
    );
    assertEquals(shown.some((line) => line.includes("Half")), false, shown.join("\n"));
  }
});

Deno.test("17.8 a partial answer taller than the screen stays, marked as discarded", async () => {
  const partial = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n\n");
  const { lines } = await run([brokenReply(partial), text("Hello there.")], {
    width: 40,
    height: 12,
  });
  assertEquals(lines.filter((line) => line.startsWith("line ")).length > 0, true);
  assertEquals(lines.slice(-2), ["(the partial answer above was discarded)", "Hello there."]);
});

Deno.test("17.8 on a pipe an answer is written once, when its reply is complete", async () => {
  const { piped } = await run(
    [brokenReply("Half an ans"), brokenReply("Half an ans"), text("Hello there.")],
    undefined,
  );
  assertMatch(
    piped,
    /^↻ The provider failed mid-reply: Provider discon…; retrying in \d\.\d s \(attempt 1\)\n↻ [^\n]+ \(attempt 2\)\nHello there\.\n$/,
  );
});

tmuxTest("17.8 powercode on a terminal and in a pipe shows a retried answer once", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    handler: sequence([
      brokenReply("Half an ans"),
      brokenReply("Half an ans"),
      text("Hello there."),
      brokenReply("Half an ans"),
      text("Hello again."),
    ]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  {
    await using pane = await startInTmux(project, { columns: 100, rows: 30 });
    await typeTask(pane, "hi");
    const waiting = await pane.waitFor((screen) => screen.includes("↻"), "a retry line");
    assertEquals(waiting.includes("Half an ans"), false, waiting);
    const screen = await waitForPrompt(pane, "the prompt after the answer");
    const lines = screenLines(screen);
    assertEquals(lines.filter((line) => line.includes("Half an ans")), [], screen);
    assertEquals(lines.filter((line) => line.includes("Hello there.")).length, 1, screen);
  }
  const piped = await project.run([], { stdin: "hi again\n", env: ENV });
  assertEquals(piped.code, 0, piped.stderr);
  assert(!piped.stdout.includes("Half an ans"), piped.stdout);
  assertMatch(piped.stdout, /\nHello again\.\n$/);
});
