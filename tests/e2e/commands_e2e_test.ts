/**
 * End-to-end: slash commands run behind the REPL's error boundary, through
 * `deno task start` on piped stdin in a temp project.
 */
import { assertEquals, assertMatch } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { sequence, text } from "../support/scripts.ts";
import { createTempProject } from "../support/project.ts";
import { ENV, provider } from "../support/sessions.ts";

Deno.test("powercode shows a command that throws as one ✗ line and runs the next queued line", async () => {
  await using project = await createTempProject();
  const answers = sequence([text("First."), text("Second.")]);
  await using server = await startFakeServer({
    handler: async (request, index) => {
      // /sessions lists .powercode/sessions/, which is by then a file it cannot list (the
      // open session file lives on, moved with its directory).
      if (index === 0) {
        await Deno.rename(`${project.dir}/.powercode/sessions`, `${project.dir}/.powercode/moved`);
        await Deno.writeTextFile(`${project.dir}/.powercode/sessions`, "");
      }
      return answers(request, index);
    },
  });
  await project.writeProvider(provider(server.url));
  const result = await project.run([], {
    stdin: "first task\n/sessions\nsecond task\n",
    env: ENV,
  });
  assertEquals([result.code, result.stderr], [1, ""]);
  const [first, failure, second, ...rest] = result.stdout.split("\n");
  assertEquals([first, second, rest], ["First.", "Second.", [""]]);
  assertMatch(failure ?? "", /^✗ .*\.powercode\/sessions/);
  assertEquals(server.requests.at(-1)?.body?.messages.slice(1), [
    { role: "user", content: "first task" },
    { role: "assistant", content: "First." },
    { role: "user", content: "second task" },
  ]);
});

Deno.test("powercode /scope prints the workspace, Deno's grants and the sandbox, and the REPL goes on", async () => {
  await using project = await createTempProject();
  await using server = await startFakeServer({ handler: sequence([text("Done.")]) });
  await project.writeProvider(provider(server.url));
  const result = await project.run([], { stdin: "/scope\ntask\n", env: ENV });
  assertEquals([result.code, result.stderr], [0, ""]);
  const workspace = await Deno.realPath(project.workspace);
  const lines = result.stdout.split("\n");
  assertEquals(lines.slice(0, 5), [
    "powercode scope (workspace layout)",
    "Roots (the tools work here, the first is the working directory):",
    `  ${workspace}`,
    "Provider file:   provider.json",
    "State directory: .powercode",
  ]);
  assertEquals(
    lines.find((line) => line.startsWith("  write ")),
    "  write  granted: workspace, .powercode/mcp.json, .powercode/skills, .powercode/commands, " +
      ".powercode/agents, .powercode/AGENTS.md, .powercode · not granted: provider.json, " +
      "anything else",
  );
  assertEquals(lines.includes("  network:       off (own network namespace)"), true);
  assertEquals(lines.at(-2), "Done.");
});
