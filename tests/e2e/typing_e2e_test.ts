/**
 * End-to-end (issue 19.8–10): typing while powercode works, through `deno task start` in a
 * tmux pane at 80×24 against the strict fake server. Lines queued while a tool runs reach
 * the model after its result, in order and once, and stay in the session; Esc interrupts a
 * streaming reply and gives the queue back; `!cmd` output goes to the next request, `!!cmd`
 * output does not; `@path` attaches a file, refusing binary and ignored ones.
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import type { ChatMessage } from "../support/fake_server.ts";
import { waitUntil } from "../support/processes.ts";
import { createTempProject } from "../support/project.ts";
import { text, toolCalls, withoutSystem } from "../support/scripts.ts";
import { ENV, provider, startScriptedServer } from "../support/sessions.ts";
import { screenLines, startInTmux, typeTask, waitForPrompt } from "../support/repl_pane.ts";
import { tmuxTest } from "../support/programs.ts";

const SIZE = { columns: 80, rows: 24, env: { NO_COLOR: "1" } };

function lastUser(messages: readonly ChatMessage[] | undefined): string {
  return String(withoutSystem(messages).filter((m) => m.role === "user").at(-1)?.content);
}

tmuxTest(
  "two lines queued while a tool runs reach the model in order, once, after its result",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    const command = "while [ ! -e go ]; do sleep 0.1; done; echo ran";
    const requests = scripted.play([
      toolCalls([{ id: "call_1", name: "bash", args: { command } }]),
      text("Read both."),
    ]);
    await using pane = await startInTmux(project, SIZE);
    await typeTask(pane, "start the work");
    await pane.waitFor((s) => s.includes(`● bash ${command}`), "the command to run");
    await typeTask(pane, "first queued");
    await typeTask(pane, "second queued");
    const queued = await pane.waitFor(
      (s) =>
        screenLines(s).slice(-4, -1).join("|") === "queued: first queued|queued: second queued|>",
      "both lines queued above the input",
    );
    assert(/running bash/.test(screenLines(queued).at(-1) ?? ""), queued);
    assertEquals(requests().length, 1);
    await Deno.writeTextFile(`${project.workspace}/go`, "");
    const done = await pane.waitFor((s) => s.includes("Read both."), "the answer");
    await waitForPrompt(pane);
    assertEquals(requests().length, 2);
    assertEquals(withoutSystem(requests()[1]?.body?.messages).slice(-3), [
      {
        role: "assistant",
        content: null,
        tool_calls: [{
          id: "call_1",
          type: "function",
          function: { name: "bash", arguments: JSON.stringify({ command }) },
        }],
      },
      { role: "tool", tool_call_id: "call_1", content: "ran\nexit code 0" },
      { role: "user", content: "first queued\n\nsecond queued" },
    ]);
    const shown = screenLines(done);
    const result = shown.findIndex((line) => line.startsWith("  ✓ exit 0"));
    assertEquals(shown.slice(result + 2, result + 5), [
      "› first queued",
      "› second queued",
      "Read both.",
    ]);

    // Persisted: --continue sends what the session had, the queued lines where they joined.
    await pane.keys("C-d");
    await waitUntil(async () => (await pane.end()).dead, "powercode to exit");
    const next = scripted.play([text("Continued.")]);
    const resumed = await project.run(["--continue"], { stdin: "and now\n", env: ENV });
    assertEquals(resumed.code, 0, resumed.stderr);
    const sent = withoutSystem(next()[0]?.body?.messages);
    assertEquals(sent.slice(0, -2), withoutSystem(requests()[1]?.body?.messages));
    assertEquals(sent.slice(-2), [
      { role: "assistant", content: "Read both." },
      { role: "user", content: "and now" },
    ]);
  },
);

tmuxTest(
  "Esc interrupts a streaming reply and gives the queued line back to the input",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    const answer = "Streaming slowly: one, two, three, four, five, six, seven, eight, nine.";
    const requests = scripted.play([text(answer, { chunkSize: 4, chunkDelayMs: 400 })]);
    await using pane = await startInTmux(project, SIZE);
    await typeTask(pane, "count slowly");
    await pane.waitFor((s) => s.includes("Streaming"), "the stream");
    await typeTask(pane, "then do this");
    await pane.waitFor((s) => s.includes("queued: then do this"), "the queued line");
    await pane.keys("Escape");
    const stopped = await pane.waitFor(
      (s) => s.includes("⏹ Interrupted") && screenLines(s).at(-1) === "> then do this",
      "the interruption and the queued line back in the input",
    );
    assert(!stopped.includes(answer), "the stream should have been cut");
    assert(!stopped.includes("Ctrl+C to interrupt"), "the status line must go");
    await waitUntil(() => requests()[0]?.clientAborted, "the server to see the stream aborted");
    assertEquals(requests().length, 1);
  },
);

tmuxTest("!cmd output is in the next request as `$ cmd`; !!cmd output is not", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  await Deno.writeTextFile(`${project.workspace}/marker-7.txt`, "");
  const requests = scripted.play([text("I saw it.")]);
  await using pane = await startInTmux(project, SIZE);
  await typeTask(pane, "!ls");
  await pane.waitFor((s) => s.includes("    marker-7.txt") && s.includes("✓ exit 0"), "ls to run");
  await waitForPrompt(pane);
  await typeTask(pane, "!!echo hidden-99");
  await pane.waitFor((s) => s.includes("    hidden-99"), "echo to run");
  await waitForPrompt(pane);
  assertEquals(requests().length, 0, "a command sends nothing by itself");
  await typeTask(pane, "what did you see?");
  await pane.waitFor((s) => s.includes("I saw it."), "the answer");
  const sent = lastUser(requests()[0]?.body?.messages);
  assertStringIncludes(sent, "\n$ ls\nmarker-7.txt\nexit code 0\n\nwhat did you see?");
  assertEquals(sent.includes("hidden-99"), false, sent);
});

tmuxTest(
  "@a.txt (completed with Tab) puts the file's text in the user message; binary and ignored files are refused",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    await Deno.writeTextFile(`${project.workspace}/a.txt`, "alpha\nbeta\n");
    await Deno.writeFile(`${project.workspace}/bin.dat`, new Uint8Array([0, 1, 2, 0]));
    await Deno.writeTextFile(`${project.workspace}/.powercodeignore`, "secret.txt\n");
    await Deno.writeTextFile(`${project.workspace}/secret.txt`, "do not send\n");
    const requests = scripted.play([text("Two lines.")]);
    await using pane = await startInTmux(project, SIZE);
    await pane.type("summarize @a.");
    await pane.keys("Tab");
    await pane.waitFor((s) => screenLines(s).at(-1) === "> summarize @a.txt", "the completed path");
    await pane.keys("Enter");
    const screen = await pane.waitFor((s) => s.includes("Two lines."), "the answer");
    assert(screen.includes("  attached a.txt (2 lines)"), screen);
    assertEquals(
      lastUser(requests()[0]?.body?.messages),
      'summarize @a.txt\n\n<attached-file path="a.txt">\n1\talpha\n2\tbeta\n</attached-file>',
    );

    await waitForPrompt(pane);
    await typeTask(pane, "look at @bin.dat");
    await pane.waitFor(
      (s) =>
        s.includes('✗ Cannot attach "bin.dat": ') &&
        screenLines(s).at(-1) === "> look at @bin.dat",
      "the refusal and the text back in the input",
    );
    await pane.keys("C-u");
    await typeTask(pane, "and @secret.txt");
    await pane.waitFor(
      (s) =>
        s.includes('✗ Cannot access "secret.txt": "secret.txt" is ignored by .powercodeignore'),
      "the ignored file refused",
    );
    assertEquals(requests().length, 1, "nothing was sent for the refused files");
  },
);
