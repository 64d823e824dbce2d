/**
 * End-to-end: powercode's terminal UI through a real pseudo-terminal (tmux), against the
 * strict fake server: pastes are one task (large ones shown compactly, fast), answers are
 * rendered markdown word-wrapped to a 50-column pane, keys typed during a task wait for the
 * next prompt, escape sequences from the model and in tool arguments are shown, never
 * interpreted, and input history survives a restart.
 */
import { assert, assertEquals } from "@std/assert";
import type { ChatMessage } from "../support/fake_server.ts";
import { waitUntil } from "../support/processes.ts";
import { createTempProject } from "../support/project.ts";
import { text, toolCalls } from "../support/scripts.ts";
import { provider, startScriptedServer } from "../support/sessions.ts";
import { screenLines, startInTmux, waitForPrompt } from "../support/repl_pane.ts";

/** The pane every test here starts with. */
const SIZE = { columns: 100, rows: 40 };
import { textWidth } from "../../src/terminal/width.ts";
import { tmuxTest } from "../support/programs.ts";

function userMessages(messages: readonly ChatMessage[] | undefined): unknown[] {
  return (messages ?? []).filter((m) => m.role === "user").map((m) => m.content);
}

tmuxTest(
  "powercode takes a multi-line paste as one task and a 7 KB paste compactly, at once",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    const requests = scripted.play([text("Got five lines."), text("Got the long one.")]);
    await using pane = await startInTmux(project, SIZE);

    const five = "line one\nline two\nline three\nline four\nline five";
    await pane.paste(five);
    await pane.waitFor(
      (s) =>
        screenLines(s).slice(-5).join("|") ===
          "> line one|  line two|  line three|  line four|  line five",
      "the pasted lines at the prompt",
    );
    await pane.keys("Enter");
    await pane.waitFor((s) => s.includes("Got five lines."), "the answer");
    await waitForPrompt(pane);

    const long = `${"0123456789".repeat(720)}tail`;
    const started = performance.now();
    await pane.paste(long);
    await pane.waitFor(
      (s) => screenLines(s).at(-1) === "> [pasted 7204 chars]",
      "the compact paste",
    );
    const ms = performance.now() - started;
    console.log(`7 KB paste shown after ${ms.toFixed(0)} ms`);
    assert(ms < 1000, `the paste took ${ms.toFixed(0)} ms to appear`);
    await pane.keys("Enter");
    await pane.waitFor((s) => s.includes("Got the long one."), "the second answer");

    assertEquals(requests().length, 2, "one request per paste");
    assertEquals(userMessages(requests()[0]?.body?.messages), [five]);
    assertEquals(userMessages(requests()[1]?.body?.messages), [five, long]);
  },
);

tmuxTest("powercode renders a markdown answer word-wrapped to a 50-column terminal", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const answer = [
    "# Plan",
    "",
    "We **must** change `parse()` because the current implementation splits words badly.",
    "",
    "> Quoted advice from the docs that is long enough to wrap.",
    "",
    "- first step",
    "- second step",
    "",
    "```ts",
    "const x = 1;",
    "```",
    "",
    "| File | Lines |",
    "|------|------:|",
    "| a.ts | 12 |",
    "",
  ].join("\n");
  scripted.play([text(answer, { chunkSize: 7 })]);
  await using pane = await startInTmux(project, { ...SIZE, columns: 50 });
  await pane.type("explain");
  await pane.keys("Enter");
  await pane.waitFor((s) => s.includes("└"), "the table's last row");
  const screen = await waitForPrompt(pane, "the prompt after the answer");
  const shown = screenLines(screen);
  const from = shown.indexOf("Plan");
  assertEquals(shown.slice(from, from + 15), [
    "Plan",
    "We must change parse() because the current",
    "implementation splits words badly.",
    "│ Quoted advice from the docs that is long enough",
    "│ to wrap.",
    "• first step",
    "• second step",
    "  ```ts",
    "  const x = 1;",
    "  ```",
    "┌──────┬───────┐",
    "│ File │ Lines │",
    "├──────┼───────┤",
    "│ a.ts │    12 │",
    "└──────┴───────┘",
  ]);
  assert(/^context [\d.]+k? \/ 32\.8k tokens/.test(shown[from + 15] ?? ""), shown.join("\n"));
  assertEquals(shown.slice(from + 16), [">"]);
  assert(shown.every((line) => textWidth(line) <= 50), shown.join("\n"));
  const colours = await pane.screen({ escapes: true });
  const heading = colours.split("\n").find((line) => line.includes("Plan")) ?? "";
  // tmux writes only the attributes that change from the previous cell (the bold input line).
  // deno-lint-ignore no-control-regex
  assert(/\x1b\[[0-9;]*35[0-9;]*mPlan/.test(heading), JSON.stringify(heading));
  assert(!screen.includes("**") && !screen.includes("# Plan"), "markdown markers are rendered");
});

tmuxTest(
  "powercode shows keys typed during a task below it, keeps them for the next prompt and drops them on Ctrl+C",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    const first = scripted.hold(text("First answer."));
    const second = scripted.hold(text("Second answer."));
    const requests = scripted.play([first.step, second.step, text("Third answer.")]);
    await using pane = await startInTmux(project, SIZE);
    await pane.type("one");
    await pane.keys("Enter");
    await waitUntil(() => requests().length === 1, "the first request");
    await pane.type("typed ahead");
    // The input stays visible and editable below the running task (issue 19.8).
    await pane.waitFor(
      (s) =>
        screenLines(s).at(-2) === "> typed ahead" &&
        /running|thinking/.test(screenLines(s).at(-1) ?? ""),
      "the typed text below the task, above the status line",
    );
    first.release();
    await pane.waitFor(
      (s) => screenLines(s).at(-1) === "> typed ahead",
      "the type-ahead in the prompt",
    );
    await pane.keys("Enter");
    await waitUntil(() => requests().length === 2, "the second request");
    await pane.type("never sent");
    await pane.keys("C-c");
    await waitForPrompt(pane, "the prompt after Ctrl+C");
    second.release();
    await pane.type("three");
    await pane.keys("Enter");
    await pane.waitFor((s) => s.includes("Third answer."), "the third answer");
    const all = screenLines(await pane.screen());
    assertEquals(all.filter((line) => line.startsWith("> ")), [
      "> one",
      "> typed ahead",
      "> three",
    ]);
    const last = String(userMessages(requests()[2]?.body?.messages).at(-1));
    assert(last.endsWith("three") && !JSON.stringify(requests()).includes("never sent"), last);
  },
);

tmuxTest(
  "powercode shows escape sequences from the model and in tool arguments instead of obeying them",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    const hidden = "echo visible; true # \r\x1b[2K\x1b[1A";
    scripted.play([
      toolCalls([{ name: "bash", args: { command: hidden } }]),
      text("Done \x1b]0;pwned\x07 \x1b]52;c;ZXZpbA==\x07 \x1b[2J end."),
    ]);
    await using pane = await startInTmux(project, SIZE);
    await pane.type("go");
    await pane.keys("Enter");
    const screen = await pane.waitFor((s) => s.includes("end."), "the answer");
    const shown = screenLines(screen);
    assert(shown.includes("● bash echo visible; true # ^M^[[2K^[[1A"), shown.join("\n"));
    assert(shown.includes("Done ^[]0;pwned^G ^[]52;c;ZXZpbA==^G ^[[2J end."), shown.join("\n"));
    assert(shown.includes("> go"), "nothing was erased above");
  },
);

tmuxTest("powercode keeps input history in .powercode/history across runs", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  scripted.play([text("Noted.")]);
  {
    await using pane = await startInTmux(project, SIZE);
    await pane.type("remember this task");
    await pane.keys("Enter");
    await pane.waitFor((s) => s.includes("Noted."), "the answer");
    await waitForPrompt(pane);
    await pane.keys("C-d");
    await waitUntil(async () => (await pane.end()).dead, "powercode to exit");
  }
  assertEquals(
    await Deno.readTextFile(`${project.dir}/.powercode/history`),
    '"remember this task"\n',
  );
  await using pane = await startInTmux(project, SIZE);
  await pane.keys("Up");
  await pane.waitFor((s) => screenLines(s).at(-1) === "> remember this task", "the recalled task");
});
