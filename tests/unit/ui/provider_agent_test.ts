/**
 * What the user sees when recorded provider traffic goes through the agent and the
 * renderer: partial answers discarded before a retry, reasoning shown dim on terminals
 * only, warnings for cut or filtered replies, and `-p` failing on a reply without choices.
 */
import { assertEquals, assertMatch } from "@std/assert";
import { assemble } from "../../../src/app/assemble.ts";
import { Renderer } from "../../../src/ui/renderer.ts";
import { PlainOutput } from "../../../src/ui/plain_output.ts";
import { TaskView } from "../../../src/ui/task_view.ts";
import { answerReport, runPrint } from "../../../src/modes/print.ts";
import { type Handler, type Reply, startFakeServer } from "../../support/fake_server.ts";
import { replay, trafficTest } from "../../support/provider_fixtures.ts";
import { VirtualScreen } from "../../support/screen.ts";
import { answerSummaries, sequence, sseReply, text } from "../../support/scripts.ts";

/**
 * An agent whose events go to a renderer, as the REPL's do: into `output` as on a pipe, or
 * with `screen` onto a virtual terminal whose lines `shown()` returns.
 */
async function run(handler: Handler, options: { screen?: boolean } = {}) {
  const server = await startFakeServer({ handler });
  const output = { text: "" };
  const write = (chunk: string) => output.text += chunk;
  const terminal = new VirtualScreen(80, 24);
  const screen = options.screen ?? false;
  const renderer = new Renderer({
    output: screen
      ? new TaskView({
        io: { write: (text) => terminal.write(text), columns: () => terminal.width },
        color: false,
        markdown: false,
        tickMs: 0,
      })
      : new PlainOutput({ answer: write, status: write }),
    color: false,
    streamAnswer: true,
  });
  const workspaceDir = await Deno.makeTempDir();
  const { agent } = await assemble({
    config: { baseURL: server.url, apiKey: "k", model: "m", contextWindow: 32000 },
    workspaceDir,
    maxSteps: 3,
    onEvent: (event) => renderer.render(event),
    tools: () => [],
    chat: { maxRetries: 1, delay: () => Promise.resolve() },
  });
  await Deno.remove(workspaceDir);
  const shown = () => screen ? `${terminal.lines().join("\n")}\n` : output.text;
  return { server, agent, session: agent.view, renderer, output, shown };
}

trafficTest(
  "a retried mid-stream error never writes its partial text on a pipe",
  async () => {
    const { server, agent, session, renderer, output } = await run(sequence([
      await replay("openrouter/mid-stream-error.sse"),
      await replay("openrouter/processing-comments.sse"),
    ]));
    await using _ = server;
    const result = await agent.run("hi", AbortSignal.timeout(10_000));
    renderer.finish(result);
    assertEquals(result, { status: "done", answer: "Hello there" });
    assertMatch(
      output.text,
      /^↻ The provider failed mid-reply: Provider discon[^;\n]*; retrying in \d+\.\d s \(attempt 1\)\nHello there\n$/,
    );
    assertEquals(session.history.at(-1), {
      role: "assistant",
      content: "Hello there",
      toolCalls: [],
    });
  },
);

trafficTest(
  "a mid-stream overflow discards the partial text, compacts and retries once",
  async () => {
    const { server, agent, renderer, output } = await run(answerSummaries(sequence([
      await replay("openrouter/mid-stream-overflow.sse"),
      text("Recovered."),
    ])));
    await using _ = server;
    const result = await agent.run("hi", AbortSignal.timeout(10_000));
    renderer.finish(result);
    assertEquals(result, { status: "done", answer: "Recovered." });
    const lines = output.text.split("\n");
    assertEquals(output.text.includes("Partial"), false);
    assertMatch(
      lines[0] ?? "",
      /^⚠ The request is too long for the model: This endpoint's maximum context length is 163840 tokens.*; compacting and retrying once$/,
    );
    assertEquals(lines.at(-2), "Recovered.");
  },
);

trafficTest("reasoning streams dim on a terminal and not at all elsewhere", async () => {
  for (const screen of [true, false]) {
    const { server, agent, renderer, shown } = await run(
      sequence([await replay("moonshot/reasoning.chunks.jsonl")]),
      { screen },
    );
    await using _ = server;
    renderer.finish(await agent.run("hi", AbortSignal.timeout(10_000)));
    // On a terminal the reasoning collapses to one line once the answer starts.
    if (screen) assertMatch(shown(), /^thinking… \d+ s\nHello!\n$/);
    else assertEquals(shown(), "Hello!\n");
  }
});

trafficTest("a reply cut at the output limit or by a content filter says so", async () => {
  const cases: [string, string][] = [
    [
      "openai/finish-length.chunks.jsonl",
      `⚠ The reply was cut at the output limit (finish_reason "length"); raise "maxOutputTokens" in provider.json or ask to continue`,
    ],
    [
      "azure/finish-content-filter.chunks.jsonl",
      `⚠ The provider's content filter stopped the reply (finish_reason "content_filter")`,
    ],
  ];
  for (const [fixture, warning] of cases) {
    const { server, agent, renderer, output } = await run(sequence([await replay(fixture)]));
    await using _ = server;
    renderer.finish(await agent.run("hi", AbortSignal.timeout(10_000)));
    assertEquals(output.text.trimEnd().split("\n").at(-1), warning);
  }
});

Deno.test("runPrint() exits 1 with one line when the provider sends no choices", async () => {
  const usageOnly: Reply = sseReply([
    '{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":0,"total_tokens":9}}',
  ]);
  const { server, agent, renderer, output } = await run(() => usageOnly);
  await using _ = server;
  const printed: string[] = [];
  const code = await runPrint(agent, "hi", {
    renderer,
    report: answerReport((a) => printed.push(a)),
  });
  assertEquals([code, printed], [1, []]);
  assertEquals(server.requests.length, 2);
  assertEquals(
    output.text.trimEnd().split("\n").at(-1),
    `✗ The provider sent a reply without any choices for model "m" (no text, no tool calls)`,
  );
});
