/**
 * Issue 36.11 through a real terminal at 80x24: `/` opens the command palette below the
 * prompt, typing narrows it, Down chooses, Enter runs the choice and leaves no palette rows.
 */
import { assertEquals } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { createTempProject } from "../support/project.ts";
import { KEY, provider } from "../support/sessions.ts";
import { screenLines, startInTmux, waitForPrompt } from "../support/repl_pane.ts";
import { text } from "../support/scripts.ts";
import { tmuxTest } from "../support/programs.ts";

tmuxTest(
  "the command palette opens at /, narrows, and goes away when Enter runs the choice",
  async () => {
    await using server = await startFakeServer({ apiKey: KEY, handler: () => text("Done.") });
    await using project = await createTempProject();
    await project.writeProvider(provider(server.url));
    await using pane = await startInTmux(project, {
      columns: 80,
      rows: 24,
      env: { NO_COLOR: "1" },
    });
    await waitForPrompt(pane);
    await pane.type("/");
    const opened = screenLines(await pane.waitFor((s) => s.includes("… 17 more"), "the palette"));
    assertEquals(opened.slice(opened.indexOf("> /")), [
      "> /",
      "› /help [command]   the commands and keys; with a command's name, what it does",
      "  /context          tokens in use, window, compaction threshold, messages, sum…",
      "  /cost             tokens, cached share, cost of the last task and session",
      "  /cache            cached share of the session's requests; where the last mis…",
      "  /compact [focus]  summarize earlier messages now, optionally focused on some…",
      "  /clear            start a new session (the current one stays on disk)",
      "  /sessions         recent sessions: id, start time, messages, first task",
      "  … 17 more (type to narrow, ↑↓ to move)",
    ]);
    await pane.type("co");
    await pane.keys("Down");
    const chosen = screenLines(await pane.waitFor((s) => s.includes("› /cost"), "/cost chosen"));
    assertEquals(chosen.slice(chosen.indexOf("> /co")), [
      "> /co",
      "  /context          tokens in use, window, compaction threshold, messages, sum…",
      "› /cost             tokens, cached share, cost of the last task and session",
      "  /compact [focus]  summarize earlier messages now, optionally focused on some…",
    ]);
    await pane.keys("Enter");
    const ran = screenLines(await waitForPrompt(pane, "the prompt after /cost"));
    const from = ran.indexOf("> /cost");
    assertEquals(ran[from + 1]?.startsWith("Last task:"), true, ran.join("\n"));
    assertEquals(ran.some((line) => line.includes("/context ")), false, "no palette rows left");
  },
);
