/**
 * End-to-end (issue 19.1, 19.2) in tmux at 80×24: a reasoning model's long thinking lines
 * collapse without leaving rows behind, and `--continue` redraws what the live session
 * showed: the answer rendered, a paste as its label, a failed command with its mark.
 */
import { assertEquals } from "@std/assert";
import { waitUntil } from "../support/processes.ts";
import { createTempProject } from "../support/project.ts";
import { sseReply, text, toolCalls } from "../support/scripts.ts";
import { provider, startScriptedServer } from "../support/sessions.ts";
import { screenLines, startInTmux, typeTask, waitForPrompt } from "../support/repl_pane.ts";
import { tmuxTest } from "../support/programs.ts";

const SIZE = { columns: 80, rows: 24 };

const THOUGHT = "The user wants me to look at the file and decide what to do about the " +
  "failing test, which seems to involve the parser, so I will read it first. ";

/** A DeepSeek-style stream: paragraph-long reasoning lines word by word, then the answer. */
function reasoningReply() {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: "r1",
    object: "chat.completion.chunk",
    created: 1761830400,
    model: "fake-model",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const words = `${THOUGHT.repeat(2)}\n`.repeat(4).split(/(?<= )/);
  return {
    ...sseReply([
      ...words.map((word) => chunk({ reasoning_content: word })),
      chunk({ content: "The answer." }),
      chunk({}, "stop"),
    ]),
    chunkDelayMs: 5,
  };
}

tmuxTest(
  "a reasoning model's long lines collapse to one line at 80 columns, no rows left behind",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    scripted.play([reasoningReply()]);
    await using pane = await startInTmux(project, SIZE);
    await typeTask(pane, "think it over");
    const screen = await pane.waitFor((s) => s.includes("The answer."), "the answer");
    await waitForPrompt(pane);
    const lines = screenLines(await pane.screen());
    const from = lines.indexOf("> think it over");
    assertEquals(lines.slice(from + 1, from + 3).map((line) => line.replace(/\d+ s$/, "N s")), [
      "thinking… N s",
      "The answer.",
    ], screen);
  },
);

tmuxTest(
  "--continue redraws the answer rendered, a paste as its label and a failed command",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    scripted.play([
      text("## Fixed\nThe **parser** works now."),
      toolCalls([{ name: "bash", args: { command: "exit 2" } }]),
      text("Tests fail."),
    ]);
    {
      await using pane = await startInTmux(project, SIZE);
      await pane.type("fix this ");
      await pane.paste(Array.from({ length: 901 }, (_, i) => `row ${i}`).join("\n"));
      await pane.waitFor(
        (s) => screenLines(s).at(-1) === "> fix this [pasted 901 lines]",
        "the paste's label",
      );
      await pane.keys("Enter");
      await pane.waitFor((s) => s.includes("works now"), "the first answer");
      await typeTask(pane, "run the tests");
      await pane.waitFor((s) => s.includes("Tests fail."), "the second answer");
      await waitForPrompt(pane);
      await pane.keys("C-d");
      await waitUntil(async () => (await pane.end()).dead, "powercode to exit");
    }
    await using pane = await startInTmux(project, { ...SIZE, args: ["--continue"] });
    const shown = screenLines(await pane.screen());
    assertEquals(shown.slice(2), [
      "› fix this [pasted 901 lines]",
      "Fixed",
      "The parser works now.",
      "› run the tests",
      "● bash exit 2 ✗",
      "Tests fail.",
      ">",
    ]);
  },
);
