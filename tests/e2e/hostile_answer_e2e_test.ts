/**
 * End-to-end: answers built to break the terminal view, through the REPL in a real
 * pseudo-terminal (tmux): a block quote nested 4000 deep and a 24 KB line of unmatched
 * `*` streamed in 4-character pieces neither crash the REPL nor keep the answer from
 * finishing.
 *
 * @module
 */
import { assert, assertEquals } from "@std/assert";
import { createTempProject } from "../support/project.ts";
import { text } from "../support/scripts.ts";
import { provider, startScriptedServer } from "../support/sessions.ts";
import { screenLines, startInTmux, typeTask, waitForPrompt } from "../support/repl_pane.ts";
import { tmuxTest } from "../support/programs.ts";

const GLOBS = ["*.ts", "*.tsx", "*.js", "*_test.ts", "*.md"];

tmuxTest(
  "powercode renders a 4000-deep quote and a 24 KB line of unmatched `*` and goes on",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    const globs = Array.from({ length: 4500 }, (_, i) => GLOBS[i % GLOBS.length]).join(" ");
    assert(globs.length > 24 * 1024);
    const hostile = `${"> ".repeat(4000)}deep\n\n${globs}\n\nfirst done\n`;
    const requests = scripted.play([text(hostile, { chunkSize: 4 }), text("Still here.")]);
    await using pane = await startInTmux(project, { columns: 100, rows: 40 });

    const started = performance.now();
    await typeTask(pane, "break the view");
    await pane.waitFor((s) => s.includes("first done"), "the end of the hostile answer", {
      timeoutMs: 60_000,
    });
    const ms = performance.now() - started;
    console.log(
      `hostile answer (${hostile.length} bytes in 4-byte pieces) shown in ${ms.toFixed(0)} ms`,
    );
    await waitForPrompt(pane);
    await typeTask(pane, "are you there?");
    await pane.waitFor((s) => s.includes("Still here."), "the next answer");
    await waitForPrompt(pane);
    assertEquals(requests().length, 2);
    assert(!screenLines(await pane.screen()).some((line) => line.includes("Maximum call stack")));
    assert(ms < 30_000, `the answer took ${ms.toFixed(0)} ms`);
  },
);
