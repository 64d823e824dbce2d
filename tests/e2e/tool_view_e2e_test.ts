/**
 * End-to-end: visible tool work on a real terminal (tmux) against the strict fake server:
 * a running command's last lines and the status line update in place, its end shows the
 * exit code, line count and duration, an edit shows its diff, a write says whether it
 * created or overwrote the file; what the model reads stays the same.
 */
import { assert, assertEquals } from "@std/assert";
import { createTempProject } from "../support/project.ts";
import { text, toolCalls } from "../support/scripts.ts";
import { provider, startScriptedServer } from "../support/sessions.ts";
import { screenLines, startInTmux } from "../support/repl_pane.ts";
import { tmuxTest } from "../support/programs.ts";

tmuxTest(
  "powercode shows a running command's last lines live and a compact result after",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    const command = "for i in $(seq 1 8); do echo step $i; sleep 0.4; done; exit 2";
    const requests = scripted.play([
      toolCalls([{ name: "bash", args: { command } }]),
      text("It failed."),
    ]);
    await using pane = await startInTmux(project, { columns: 80, rows: 30 });
    await pane.type("run it");
    await pane.keys("Enter");
    const running = await pane.waitFor(
      // The input stays between the live output and the status line (issue 19.8).
      (s) => screenLines(s).slice(-4, -1).join("|") === "    step 4|    step 5|>",
      "the live output",
    );
    assert(
      /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] running bash · \d+s · Ctrl\+C/.test(screenLines(running).at(-1) ?? ""),
      running,
    );
    const screen = await pane.waitFor((s) => s.includes("It failed."), "the answer");
    const shown = screenLines(screen);
    const start = shown.indexOf(`● bash ${command}`);
    assert(start >= 0, screen);
    assert(/^ {2}✗ exit 2 · 8 lines · [34]\.\d s$/.test(shown[start + 1] ?? ""), shown[start + 1]);
    assertEquals(shown.slice(start + 2, start + 7), [
      "    … 4 earlier lines",
      "    step 5",
      "    step 6",
      "    step 7",
      "    step 8",
    ]);
    const result = requests()[1]?.body?.messages?.at(-1);
    assertEquals(
      result?.content,
      `${Array.from({ length: 8 }, (_, i) => `step ${i + 1}`).join("\n")}\nexit code 2`,
    );
  },
);

tmuxTest(
  "powercode shows an edit as a diff and says whether a write created or overwrote",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    await Deno.writeTextFile(
      `${project.workspace}/app.ts`,
      "const a = 1;\nconst b = 2;\nconst c = 3;\n",
    );
    scripted.play([
      toolCalls([
        {
          name: "edit_file",
          args: {
            path: "app.ts",
            old_string: "b = 2",
            new_string: "b = 42",
          },
        },
        { name: "write_file", args: { path: "notes.md", content: "one\ntwo\n" } },
        { name: "write_file", args: { path: "notes.md", content: "three\n" } },
      ]),
      text("Edited."),
    ]);
    await using pane = await startInTmux(project, { columns: 80, rows: 30 });
    await pane.type("change b");
    await pane.keys("Enter");
    const screen = await pane.waitFor((s) => s.includes("Edited."), "the answer");
    const shown = screenLines(screen);
    const start = shown.indexOf("● edit_file app.ts");
    // Whole lines, numbered, with the unchanged lines around them (issue 19.3), not fragments.
    assertEquals(shown.slice(start, start + 10), [
      "● edit_file app.ts",
      "  ✓ line 2",
      "     1 const a = 1;",
      "    -2 const b = 2;",
      "    +2 const b = 42;",
      "     3 const c = 3;",
      "● write_file notes.md",
      "  ✓ created, 2 lines, 8 B",
      "● write_file notes.md",
      "  ✓ overwritten, 1 line, 6 B",
    ]);
    const colours = await pane.screen({ escapes: true });
    const removed = colours.split("\n").find((line) => line.includes("-2 const b = 2;")) ?? "";
    // tmux writes only the attributes that change from the previous cell (the dim context line).
    // deno-lint-ignore no-control-regex
    assert(/\x1b\[31m(\x1b\[[0-9;]*m)* {4}-2 const b = 2;/.test(removed), JSON.stringify(removed));
  },
);
