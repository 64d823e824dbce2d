/**
 * End-to-end on a real terminal (tmux): a project's `.mcp.json` is shown in full and used
 * only after the user says yes; the approval is remembered for that exact content.
 */
import { assertEquals, assertStringIncludes } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { text } from "../support/scripts.ts";
import { childEnv, createTempProject } from "../support/project.ts";
import { ENV, provider } from "../support/sessions.ts";
import { fakeServerEntry, writeMcpConfig } from "../support/mcp.ts";
import { startTmux } from "../support/tmux.ts";
import { screenLines, typeTask, waitForPrompt } from "../support/repl_pane.ts";
import { sha256 } from "../../src/mcp/approvals.ts";
import { tmuxTest } from "../support/programs.ts";

tmuxTest(
  "powercode asks on a terminal before using a project's .mcp.json and remembers the yes",
  async () => {
    await using server = await startFakeServer({ handler: () => text("Answer with the servers.") });
    await using project = await createTempProject();
    await project.writeProvider(provider(server.url));
    const file = `${project.workspace}/.mcp.json`;
    await writeMcpConfig(file, { proj: await fakeServerEntry(project.workspace) });
    await using pane = await startTmux({
      cwd: project.dir,
      command: "deno task --quiet start",
      env: { ...childEnv(ENV), TERM: "xterm-256color" },
    });
    const asked = await pane.waitFor(
      (screen) => screen.includes("[y/N]"),
      "the approval question",
    );
    const lines = screenLines(asked);
    assertStringIncludes(
      asked,
      "workspace/.mcp.json asks powercode to start MCP servers (proj):\n  │ {\n" +
        '  │   "mcpServers": {\n  │     "proj": {\n',
    );
    assertEquals(
      lines.at(-1),
      "Use this exact content now and in later sessions? [y/N]",
    );
    await pane.type("y");
    await pane.keys("Enter");
    await waitForPrompt(pane);
    await typeTask(pane, "hi");
    await pane.waitFor((screen) => screen.includes("Answer with the servers."), "the answer");
    const names = server.requests.at(-1)?.body?.tools?.map((tool) => tool.function.name) ?? [];
    assertEquals(names.filter((name) => name.startsWith("mcp__proj__")).length, 8);
    const approvals = JSON.parse(
      await Deno.readTextFile(`${project.dir}/.powercode/mcp-approvals.json`),
    );
    assertEquals(approvals, {
      approvals: { [await Deno.realPath(file)]: await sha256(await Deno.readFile(file)) },
    });
  },
);
