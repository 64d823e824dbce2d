/**
 * End-to-end through tmux (issue 36.10, 36.12): Ctrl+Z during a task leaves none of its live
 * rows behind, and after `fg` the task's line heads them again; Alt+Up takes the queued
 * messages back into the input without interrupting the task.
 */
import { assertEquals, assertMatch } from "@std/assert";
import { powercodePid } from "../support/processes.ts";
import { childEnv, createTempProject } from "../support/project.ts";
import { text } from "../support/scripts.ts";
import { ENV, provider, startScriptedServer } from "../support/sessions.ts";
import { screenLines, startInTmux, typeTask, waitForPrompt } from "../support/repl_pane.ts";
import { startTmux } from "../support/tmux.ts";
import { tmuxTest } from "../support/programs.ts";

const SIZE = { columns: 80, rows: 24, env: { NO_COLOR: "1" } };

/** The shell's prompt, e.g. `bash-5.2#` or `$`. */
const shellPrompt = (screen: string) => /[$#]$/.test(screenLines(screen).at(-1) ?? "");

tmuxTest(
  "Ctrl+Z during a task leaves no live row behind; fg redraws them under the task's line",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    const held = scripted.hold(text("Done after fg."));
    scripted.play([held.step]);
    await using pane = await startTmux({
      cwd: project.dir,
      command: "bash --norc --noprofile -i",
      env: { ...childEnv(ENV), NO_COLOR: "1", TERM: "xterm-256color" },
      columns: 80,
      rows: 24,
    });
    await pane.waitFor(shellPrompt, "the shell");
    await typeTask(pane, "deno task --quiet start");
    await waitForPrompt(pane);
    await typeTask(pane, "a long task");
    await pane.waitFor((s) => /thinking/.test(screenLines(s).at(-1) ?? ""), "the status line");
    await typeTask(pane, "queued one");
    await pane.type("half");
    await pane.waitFor((s) => s.includes("> half"), "the input below the task");
    await pane.keys("C-z");
    const stopped = await pane.waitFor(
      (s) => /Stopped +deno task --quiet start/.test(s) && shellPrompt(s),
      "the shell's prompt with the job stopped",
    );
    const lines = screenLines(stopped);
    const task = lines.indexOf("> a long task");
    assertMatch(lines[task + 1] ?? "", /^\[1\]\+ +Stopped/, "no live row between");
    await typeTask(pane, "fg");
    const back = await pane.waitFor(
      (s) => screenLines(s).at(-2) === "> half" && /thinking/.test(screenLines(s).at(-1) ?? ""),
      "the live rows again",
    );
    assertEquals(screenLines(back).slice(-5, -1), [
      "deno task --quiet start",
      "› a long task",
      "queued: queued one",
      "> half",
    ]);
    await pane.type(" more");
    await pane.waitFor((s) => screenLines(s).at(-2) === "> half more", "raw mode back");
    held.release();
    await pane.waitFor((s) => s.includes("Done after fg."), "the answer");
  },
);

tmuxTest(
  "SIGTSTP from outside suspends powercode as Ctrl+Z does; fg brings raw mode back",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    await using pane = await startTmux({
      cwd: project.dir,
      command: "bash --norc --noprofile -i",
      env: { ...childEnv(ENV), NO_COLOR: "1", TERM: "xterm-256color" },
      columns: 80,
      rows: 24,
    });
    await pane.waitFor(shellPrompt, "the shell");
    await typeTask(pane, "deno task --quiet start");
    await waitForPrompt(pane);
    await pane.type("half typed");
    await pane.waitFor((s) => screenLines(s).at(-1) === "> half typed", "the typed text");
    Deno.kill(await powercodePid(await pane.pid()), "SIGTSTP");
    const stopped = await pane.waitFor(
      (s) => /Stopped +deno task --quiet start/.test(s) && shellPrompt(s),
      "the shell's prompt with the job stopped",
    );
    assertEquals(stopped.includes("> half typed"), false, "the prompt was erased");
    await typeTask(pane, "fg");
    await pane.waitFor((s) => screenLines(s).at(-1) === "> half typed", "the input back");
    await pane.type(" more");
    await pane.waitFor((s) => screenLines(s).at(-1) === "> half typed more", "raw mode back");
  },
);

tmuxTest(
  "Alt+Up takes the queued messages back into the input while the task runs on",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    const held = scripted.hold(text("First done."));
    const requests = scripted.play([held.step, text("Edited done.")]);
    await using pane = await startInTmux(project, SIZE);
    await typeTask(pane, "first task");
    await pane.waitFor((s) => /thinking/.test(screenLines(s).at(-1) ?? ""), "the status line");
    await typeTask(pane, "fix the typo");
    await pane.waitFor((s) => s.includes("queued: fix the typo"), "the queued message");
    await pane.keys("M-Up");
    const edited = await pane.waitFor(
      (s) => !s.includes("queued:") && screenLines(s).at(-2) === "> fix the typo",
      "the message back in the input",
    );
    assertEquals(/thinking/.test(screenLines(edited).at(-1) ?? ""), true, "the task runs on");
    await pane.type(" in the README");
    held.release();
    await pane.waitFor((s) => s.includes("First done."), "the first answer");
    await pane.waitFor(
      (s) => screenLines(s).at(-1) === "> fix the typo in the README",
      "the edited message at the prompt",
    );
    assertEquals(requests().length, 1, "the queued message was not sent");
    await pane.keys("Enter");
    await pane.waitFor((s) => s.includes("Edited done."), "the edited message answered");
    const sent = JSON.stringify(requests()[1]?.body?.messages?.at(-1));
    assertEquals(sent.includes("fix the typo in the README"), true, sent);
    await waitForPrompt(pane);
  },
);
