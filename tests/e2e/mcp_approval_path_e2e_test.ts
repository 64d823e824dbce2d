/**
 * End-to-end on a real terminal (tmux), in project mode: the `.mcp.json` approval question
 * shows the project's path sanitized, so a directory name cannot set the terminal's title or
 * hide the text being approved (issue 35, item 9).
 */
import { assertStringIncludes } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { text } from "../support/scripts.ts";
import { createInstalledHome } from "../support/installed.ts";
import { ENV, provider } from "../support/sessions.ts";
import { writeMcpConfig } from "../support/mcp.ts";
import { startTmux } from "../support/tmux.ts";
import { tmuxTest } from "../support/programs.ts";

tmuxTest(
  "the .mcp.json approval question shows a hostile project path with its escapes visible",
  async () => {
    await using server = await startFakeServer({ handler: () => text("ok") });
    await using installed = await createInstalledHome();
    await installed.writeProvider(provider(server.url));
    const project = `${installed.home}/p\x1b]0;PWNED\x07\x1b[2Kq`;
    await Deno.mkdir(project);
    await writeMcpConfig(`${project}/.mcp.json`, { proj: { command: "true" } });
    const home = installed.home;
    const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
    await using pane = await startTmux({
      cwd: project,
      command: `${home}/bin/powercode`,
      env: {
        ...ENV,
        HOME: home,
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        NO_COLOR: "1",
        DENO_DIR: denoDir,
        TERM: "xterm-256color",
      },
    });
    const asked = await pane.waitFor((screen) => screen.includes("[y/N]"), "the question");
    assertStringIncludes(
      asked.replace(/\s+/g, ""),
      `${home}/p^[]0;PWNED^G^[[2Kq/.mcp.jsonaskspowercodetostartMCPservers(proj):`,
    );
    await pane.type("n");
    await pane.keys("Enter");
  },
);
