/**
 * End-to-end: how plan mode and the todo list look on a real 80-column terminal (tmux): the
 * prompt and the status line show plan mode and the count, the checklist is drawn when the
 * list changes, `/plan off` says so and the prompt goes back.
 *
 * @module
 */
import { assert, assertEquals } from "@std/assert";
import { createTempProject } from "../support/project.ts";
import { text, toolCall } from "../support/scripts.ts";
import { provider, startScriptedServer } from "../support/sessions.ts";
import { screenLines, startInTmux, typeTask, waitForPrompt } from "../support/repl_pane.ts";
import { tmuxTest } from "../support/programs.ts";

const SIZE = { columns: 80, rows: 30 };
const PLAN_PROMPT = "plan > ";

tmuxTest(
  "at 80 columns plan mode shows in the prompt and the status line, with the todo count and the checklist",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    const items = [
      { text: "Read the parser", status: "done" },
      { text: "Write the test", status: "in_progress" },
      { text: "Run the suite", status: "pending" },
    ];
    const held = scripted.hold(text("The plan is ready."));
    scripted.play([toolCall("todo", { items }), held.step]);
    await using pane = await startInTmux(project, {
      ...SIZE,
      args: ["--plan"],
      prompt: PLAN_PROMPT,
    });
    assert(screenLines(await pane.screen()).includes("Plan mode is on: /plan off leaves it"));
    await typeTask(pane, "plan the test");
    const running = await pane.waitFor(
      (screen) =>
        / thinking · plan mode · todo 1\/3 · \d+s · /.test(screenLines(screen).at(-1) ?? ""),
      "the status line with plan mode and the todo count",
    );
    const lines = screenLines(running);
    assert((lines.at(-1)?.length ?? 99) < SIZE.columns, lines.at(-1));
    const at = lines.indexOf("● todo 1/3 · Write the test");
    assert(at > 0, running);
    assertEquals(lines.slice(at + 1, at + 5), [
      "  ✓ 1/3 done",
      "    ✓ Read the parser",
      "    ▸ Write the test",
      "    ○ Run the suite",
    ]);
    held.release();
    await pane.waitFor((screen) => screen.includes("The plan is ready."), "the answer");
    await waitForPrompt(pane, "the plan prompt", PLAN_PROMPT);
    await typeTask(pane, "/plan off");
    const off = await waitForPrompt(pane, "the prompt after /plan off");
    const shown = screenLines(off);
    assertEquals(
      shown.at(-2),
      "Plan mode off: the agent may change files again; PLAN.md holds the plan",
    );
    await typeTask(pane, "/plan on");
    const on = screenLines(await waitForPrompt(pane, "the prompt after /plan on", PLAN_PROMPT));
    // Wrapped by word, not cut at the 80th column by the terminal.
    assertEquals(on.slice(-3, -1), [
      "Plan mode on: the agent may change only PLAN.md, and bash runs with the",
      "workspace read-only; /plan off leaves it",
    ]);
  },
);
