/**
 * End-to-end on a real terminal (tmux), through the installed command in project mode: the
 * hooks of a project's `.powercode/settings.json` run only once the user approved the file's
 * content at the start question; refused (or not asked, with `-p`), none runs.
 *
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { createInstalledHome, type InstalledHome } from "../support/installed.ts";
import { skipWithout } from "../support/programs.ts";
import { typeTask, waitForPrompt } from "../support/repl_pane.ts";
import { text } from "../support/scripts.ts";
import { ENV, KEY, provider } from "../support/sessions.ts";
import { startTmux } from "../support/tmux.ts";

/** The file the project's hook appends a line to each time it runs. */
const MARK = "hook-runs.txt";

/** The installed command on a terminal in the project; answers the settings question. */
async function startAnswering(installed: InstalledHome, answer: "y" | "n") {
  const pane = await startTmux({
    cwd: installed.project,
    command: `${installed.home}/bin/powercode`,
    env: {
      ...ENV,
      HOME: installed.home,
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      NO_COLOR: "1",
      DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
      TERM: "xterm-256color",
    },
  });
  const asked = await pane.waitFor((screen) => screen.includes("[y/N]"), "the question");
  assertStringIncludes(asked, ".powercode/settings.json asks powercode for settings:");
  await pane.type(answer);
  await pane.keys("Enter");
  await waitForPrompt(pane);
  return pane;
}

/** How many times the hook ran (lines in its file), 0 when it never did. */
async function hookRuns(installed: InstalledHome): Promise<number> {
  try {
    return (await Deno.readTextFile(`${installed.project}/${MARK}`)).split("\n").length - 1;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return 0;
    throw error;
  }
}

Deno.test({
  name: "a project's hooks run only after the user approved its settings file",
  ignore: skipWithout("tmux", "bwrap"),
  fn: async () => {
    await using server = await startFakeServer({
      model: "fake-model",
      apiKey: KEY,
      handler: () => text("Answered."),
    });
    await using installed = await createInstalledHome();
    await installed.writeProvider(provider(server.url));
    await Deno.mkdir(`${installed.project}/.powercode`);
    await Deno.writeTextFile(
      `${installed.project}/.powercode/settings.json`,
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [{ hooks: [{ type: "command", command: `echo ran >> ${MARK}` }] }],
        },
      }),
    );
    // -p never asks: the file is not used and its hook does not run.
    const printed = await installed.run(["-p", "hi"], { env: ENV });
    assertEquals([printed.code, printed.stdout], [0, "Answered.\n"], printed.stderr);
    assertStringIncludes(printed.stderr, "is not used: its content is not approved");
    assertEquals(await hookRuns(installed), 0);
    {
      await using refused = await startAnswering(installed, "n");
      await typeTask(refused, "first");
      await refused.waitFor((screen) => screen.includes("Answered."), "the answer");
      assertEquals(await hookRuns(installed), 0, "the refused file's hook ran");
    }
    {
      await using approved = await startAnswering(installed, "y");
      await typeTask(approved, "second");
      await approved.waitFor((screen) => screen.includes("Answered."), "the answer");
      assertEquals(await hookRuns(installed), 1, "the approved file's hook did not run");
    }
    // The approval is remembered for that content: -p uses it now.
    const later = await installed.run(["-p", "again"], { env: ENV });
    assertEquals(later.code, 0, later.stderr);
    assert(!later.stderr.includes("is not used"), later.stderr);
    assertEquals(await hookRuns(installed), 2);
  },
});
