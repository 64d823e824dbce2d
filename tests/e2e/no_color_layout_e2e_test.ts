/**
 * 17.9: NO_COLOR on a terminal means no colour, not no layout: the answer keeps its headings,
 * lists, tables and word wrap, with no escape sequence for colour.
 */
import { assert, assertEquals } from "@std/assert";
import { createTempProject } from "../support/project.ts";
import { screenLines, startInTmux, typeTask, waitForPrompt } from "../support/repl_pane.ts";
import { startScriptedServer } from "../support/sessions.ts";
import { text } from "../support/scripts.ts";
import { provider } from "../support/sessions.ts";
import { tmuxTest } from "../support/programs.ts";

const PARAGRAPH = "The configuration loader reads every provider file it knows of, checks each " +
  "field against its type, and reports every problem at once with the file and the field, so " +
  "that nobody has to fix one mistake at a time.";

const ANSWER = [
  "## Plan",
  "",
  "- read the loader",
  "- check the fields",
  "",
  "| file | fields |",
  "| --- | --- |",
  "| provider.json | 5 |",
  "",
  PARAGRAPH,
].join("\n");

tmuxTest(
  "17.9 with NO_COLOR on a terminal the answer keeps headings, lists, tables and word wrap",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    scripted.play([text(ANSWER)]);
    await using pane = await startInTmux(project, { env: { NO_COLOR: "1" }, columns: 80 });
    await typeTask(pane, "explain the loader");
    await pane.waitFor((screen) => screen.includes("nobody"), "the answer");
    await waitForPrompt(pane, "the prompt after the answer");
    const screen = await pane.screen({ escapes: true });
    assertEquals(screen.includes("\x1b["), false, JSON.stringify(screen));
    const lines = screenLines(screen);
    const start = lines.indexOf("## Plan");
    assert(start >= 0, screen);
    assertEquals(lines.slice(start + 1, start + 3), ["• read the loader", "• check the fields"]);
    const table = lines.slice(start + 3, start + 8);
    assert(table.every((line) => /^[┌│├└]/.test(line)), table.join("\n"));
    assert(table.some((line) => /│ provider\.json +│ 5 +│/.test(line)), table.join("\n"));
    // Word wrap: the paragraph's rows end at word boundaries and hold all of its words.
    const first = lines.findIndex((line) => line.startsWith("The configuration"));
    const rows = lines.slice(first, lines.findIndex((line) => line.endsWith("at a time.")) + 1);
    assert(rows.length > 1 && rows.every((row) => row.length < 80), rows.join("\n"));
    assertEquals(rows.join(" "), PARAGRAPH);
  },
);
