/**
 * End-to-end on a real pseudo-terminal (tmux): resuming shows where you are, exiting says
 * how to continue, and lines typed during a task are dropped on Ctrl+C.
 *
 * @module
 */
import { assert, assertEquals } from "@std/assert";
import { createTempProject } from "../support/project.ts";
import { waitUntil } from "../support/processes.ts";
import { PROMPT, screenLines, startInTmux, typeTask, waitForPrompt } from "../support/repl_pane.ts";
import { httpError, text, toolCalls, withoutSystem } from "../support/scripts.ts";
import { ENV, provider, sessionIds, startScriptedServer } from "../support/sessions.ts";
import { tmuxTest } from "../support/programs.ts";

tmuxTest(
  "powercode --continue redraws the conversation; Ctrl+D leaves a fresh line and says how to continue",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    scripted.play([
      toolCalls([{ id: "call_1", name: "bash", args: { command: "echo hi > a.txt" } }]),
      text("Wrote a.txt.\nIt says hi."),
    ]);
    await project.run([], { stdin: "write hi into a.txt\n", env: ENV });
    const [id] = await sessionIds(project.dir);
    assert(id);

    const next = scripted.play([text("Still here.")]);
    await using pane = await startInTmux(project, { env: { NO_COLOR: "1" }, args: ["--continue"] });
    const shown = screenLines(await pane.screen());
    assertEquals(shown.slice(-6), [
      `Resumed session ${id} (4 messages)`,
      "› write hi into a.txt",
      "● bash echo hi > a.txt ✓",
      "Wrote a.txt.",
      "It says hi.",
      PROMPT.trim(),
    ]);
    await pane.keys("Up");
    await pane.waitFor(
      (screen) => screenLines(screen).at(-1) === `${PROMPT}write hi into a.txt`,
      "the session's own task on Up",
    );
    await pane.keys("C-u");
    await typeTask(pane, "are you there?");
    await pane.waitFor((screen) => screen.includes("Still here."), "the answer");
    await waitForPrompt(pane, "the prompt after the answer");
    assertEquals(withoutSystem(next()[0]?.body?.messages).at(-1), {
      role: "user",
      content: "are you there?",
    });

    await pane.keys("C-d");
    await waitUntil(async () => (await pane.end()).dead, "powercode to exit");
    const lines = screenLines(await pane.screen()).filter((line) =>
      !line.startsWith("Pane is dead")
    );
    assertEquals(lines.at(-3), PROMPT.trim());
    assertEquals(lines.at(-2)?.startsWith("Spent "), true, lines.join("\n"));
    assertEquals(lines.at(-1), `Session ${id} saved: deno task start -c continues it`);
    assertEquals(await pane.end(), { dead: true, status: 0 });
  },
);

tmuxTest("powercode --continue redraws each tool call with the outcome it had", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  scripted.play([
    toolCalls([
      { id: "call_1", name: "bash", args: { command: "exit 3" } },
      { id: "call_2", name: "read_file", args: { path: "missing.txt" } },
      { id: "call_3", name: "bash", args: { command: "true" } },
    ]),
    text("Tried."),
  ]);
  await project.run([], { stdin: "try things\n", env: ENV });
  await using pane = await startInTmux(project, { env: { NO_COLOR: "1" }, args: ["--continue"] });
  assertEquals(screenLines(await pane.screen()).slice(-6), [
    "› try things",
    "● bash exit 3 ✗",
    "● read_file missing.txt ✗",
    "● bash true ✓",
    "Tried.",
    PROMPT.trim(),
  ]);
});

tmuxTest("powercode drops lines typed during a task when Ctrl+C interrupts it", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const held = scripted.hold(text("Never shown."));
  const first = scripted.play([held.step, text("Only this one.")]);
  await using pane = await startInTmux(project, { env: { NO_COLOR: "1" } });
  await typeTask(pane, "slow task");
  await waitUntil(() => first().length === 1, "the first request to reach the server");
  await typeTask(pane, "typed ahead");
  await pane.keys("C-c");
  await pane.waitFor(
    (screen) => screen.includes("⏹ Interrupted") && screenLines(screen).at(-1) === PROMPT.trim(),
    "the interrupted line and an empty prompt",
  );
  held.release();
  await typeTask(pane, "real task");
  await pane.waitFor((screen) => screen.includes("Only this one."), "the answer");
  const tasks = first().flatMap((request) =>
    withoutSystem(request.body?.messages).filter((message) => message.role === "user")
      .map((message) => String(message.content))
  );
  assert(!tasks.some((task) => task.includes("typed ahead")), JSON.stringify(tasks));
  assertEquals(first().length, 2);
});

tmuxTest(
  "powercode rewrites the retry line in place on a terminal and clears it for the answer",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    const busy = httpError(503, `overloaded ${"and very busy ".repeat(20)}`, {
      headers: { "retry-after": "1" },
    });
    scripted.play([busy, busy, text("Answer after retries.")]);
    await using pane = await startInTmux(project, { env: { NO_COLOR: "1" } });
    await typeTask(pane, "hello");
    const second = await pane.waitFor(
      (screen) => screen.includes("(attempt 2)"),
      "the second retry",
    );
    const retryRows = screenLines(second).filter((line) => line.startsWith("↻"));
    assertEquals(retryRows.length, 1, second);
    assert(retryRows[0]!.length <= 200 && retryRows[0]!.includes("…"), retryRows[0]);
    const done = await pane.waitFor((screen) => screen.includes("Answer after retries."), "answer");
    assertEquals(screenLines(done).filter((line) => line.includes("↻")), []);
  },
);
