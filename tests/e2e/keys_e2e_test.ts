/**
 * End-to-end (issue 19.4, 19.7, 19.11): keys people have in their fingers and the terminal
 * left as it was, through `deno task start` on a real pseudo-terminal (tmux, 80×24): Ctrl+Y
 * and Ctrl+R, Ctrl+Z with `fg` in an interactive shell, Ctrl+L during a task, and the terminal
 * mode restored after SIGTERM and SIGHUP.
 */
import { assert, assertEquals } from "@std/assert";
import { powercodePid, waitUntil } from "../support/processes.ts";
import { childEnv, createTempProject } from "../support/project.ts";
import { text } from "../support/scripts.ts";
import { ENV, provider, startScriptedServer } from "../support/sessions.ts";
import {
  screenLines,
  startInTmux,
  typeTask,
  waitForPrompt,
  withoutNoColor,
} from "../support/repl_pane.ts";
import { startTmux } from "../support/tmux.ts";
import { tmuxTest } from "../support/programs.ts";

const SIZE = { columns: 80, rows: 24, env: { NO_COLOR: "1" } };

tmuxTest("Ctrl+Y puts back what Ctrl+W cut, and Ctrl+R finds an earlier task", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  scripted.play([text("Parsed."), text("Again.")]);
  await using pane = await startInTmux(project, SIZE);
  await typeTask(pane, "find the parser");
  await pane.waitFor((s) => s.includes("Parsed."), "the answer");
  await waitForPrompt(pane);
  await pane.type("alpha beta");
  await pane.keys("C-w", "C-a", "C-y");
  await pane.waitFor((s) => screenLines(s).at(-1) === "> betaalpha", "the word put back");
  await pane.keys("C-u", "C-k", "C-r");
  await pane.type("pars");
  await pane.waitFor(
    (s) => screenLines(s).at(-1) === "(reverse-i-search)'pars': find the parser",
    "the search",
  );
  await pane.keys("Enter");
  await pane.waitFor((s) => screenLines(s).at(-1) === "> find the parser", "the match taken");
  await pane.keys("Enter");
  await pane.waitFor((s) => s.includes("Again."), "the task run again");
});

tmuxTest(
  "Ctrl+Z suspends powercode in a shell and fg brings the input back as it was",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    await using pane = await startTmux({
      cwd: project.dir,
      command: "bash --norc --noprofile -i",
      env: { ...childEnv(ENV), TERM: "xterm-256color" },
      columns: 80,
      rows: 24,
    });
    /** The shell's prompt, e.g. `bash-5.2#` or `$`. */
    const shellPrompt = (screen: string) => /[$#]$/.test(screenLines(screen).at(-1) ?? "");
    await pane.waitFor(shellPrompt, "the shell");
    await typeTask(pane, "deno task --quiet start");
    await waitForPrompt(pane);
    await pane.type("half typed");
    await pane.keys("C-z");
    await pane.waitFor(
      (s) => /Stopped +deno task --quiet start/.test(s) && shellPrompt(s),
      "the shell's prompt with the job stopped",
    );
    await typeTask(pane, "fg");
    await pane.waitFor((s) => screenLines(s).at(-1) === "> half typed", "the input back");
    await pane.type(" more");
    await pane.waitFor((s) => screenLines(s).at(-1) === "> half typed more", "raw mode back");
    await pane.keys("C-u", "C-d");
    await pane.waitFor(
      (s) => shellPrompt(s) && screenLines(s).at(-2)?.startsWith(">") === true,
      "the shell after Ctrl+D",
    );
  },
);

tmuxTest("Ctrl+L during a task clears the screen and keeps the task's rows", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const held = scripted.hold(text("Cleared and done."));
  scripted.play([held.step]);
  await using pane = await startInTmux(project, SIZE);
  await typeTask(pane, "wait for it");
  await pane.waitFor((s) => /thinking/.test(screenLines(s).at(-1) ?? ""), "the status line");
  await pane.keys("C-l");
  const visible = await waitUntil(async () => {
    const lines = screenLines(await pane.screen({ visible: true }));
    return lines.length === 2 && lines[0] === ">" && /thinking/.test(lines[1] ?? "") && lines;
  }, "a cleared screen with the input and the status line at its top");
  assertEquals(visible[0], ">");
  held.release();
  await pane.waitFor((s) => s.includes("Cleared and done."), "the answer");
});

for (const signal of ["SIGTERM", "SIGHUP"] as const) {
  tmuxTest(
    `powercode ended by ${signal} leaves the terminal in cooked mode with echo`,
    async () => {
      await using scripted = await startScriptedServer();
      await using project = await createTempProject();
      await project.writeProvider(provider(scripted.server.url));
      const stty = `${project.dir}/stty.txt`;
      await using pane = await startTmux({
        cwd: project.dir,
        command: `deno task --quiet start; stty -a > ${stty}`,
        env: { ...withoutNoColor(childEnv(ENV)), TERM: "xterm-256color" },
        columns: 80,
        rows: 24,
      });
      await waitForPrompt(pane);
      await pane.type("half typed");
      await pane.waitFor((s) => screenLines(s).at(-1) === "> half typed", "the typed text");
      Deno.kill(await powercodePid(await pane.pid()), signal);
      const modes = await waitUntil(
        () => Deno.readTextFile(stty).then((text) => text || undefined, () => undefined),
        "stty to report the modes",
      );
      const flags = modes.split(/[\s;]+/);
      assert(flags.includes("icanon") && flags.includes("echo"), modes);
      assert(!flags.includes("-icanon") && !flags.includes("-echo"), modes);
    },
  );
}
