/**
 * Issue 36.3 through a real terminal: the banner, `/model` and the start's warnings wrap by word
 * at 50 columns, the rows after a line's first indented under it.
 */
import { assertEquals } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { createTempProject } from "../support/project.ts";
import { KEY, provider } from "../support/sessions.ts";
import { screenLines, startInTmux, typeTask, waitForPrompt } from "../support/repl_pane.ts";
import { text } from "../support/scripts.ts";
import { tmuxTest } from "../support/programs.ts";

const MODEL = "qwen2.5-coder-32b-instruct-q4_K_M-gguf";

tmuxTest("the banner and /model wrap by word at 50 columns", async () => {
  await using server = await startFakeServer({
    model: MODEL,
    apiKey: KEY,
    handler: () => text("Done."),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url, { model: MODEL }));
  await using pane = await startInTmux(project, { columns: 50, rows: 24, env: { NO_COLOR: "1" } });
  assertEquals(screenLines(await pane.screen()), [
    "powercode 0.1.0 ·",
    `  ${MODEL} · /help`,
    "  for commands",
    ">",
  ]);
  await typeTask(pane, "/model");
  const shown = screenLines(await waitForPrompt(pane, "/model's list"));
  assertEquals(shown.slice(shown.indexOf("> /model") + 1), [
    "Profiles in provider.json (* current):",
    "* default  qwen2.5-coder-32b-instruct-q4_K_M-gguf",
    "    32.8k window",
    "Switch with /model NAME",
    ">",
  ]);
});

tmuxTest("the warning of a literal key wraps by word at 50 columns, under the banner", async () => {
  await using server = await startFakeServer({ apiKey: KEY, handler: () => text("Done.") });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url, { apiKey: KEY }));
  await using pane = await startInTmux(project, { columns: 50, rows: 24, env: { NO_COLOR: "1" } });
  assertEquals(screenLines(await pane.screen()), [
    "powercode 0.1.0 · fake-model · /help for commands",
    "⚠ provider.json holds a literal API key, which a",
    "  commit or a copy of this directory shares: use",
    '  "env:NAME", or a personal copy in .powercode/',
    "  (--provider .powercode/provider.json)",
    ">",
  ]);
});
