/**
 * Issue 36.4: where standard output is not a terminal, tables and lists are printed whole (a
 * pipe has no width): `--sessions`, `/sessions` and `/mcp`.
 */
import { assertEquals, assertStringIncludes } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { fakeServerEntry, writeMcpConfig } from "../support/mcp.ts";
import { createTempProject } from "../support/project.ts";
import { text } from "../support/scripts.ts";
import { ENV, provider } from "../support/sessions.ts";

const TASK = `summarize ${"every file in the workspace ".repeat(6)}and stop`;

Deno.test("--sessions and /sessions on a pipe show a long first task whole", async () => {
  await using server = await startFakeServer({ handler: () => text("ok") });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const run = await project.run(["-p", TASK], { env: ENV });
  assertEquals(run.code, 0, run.stderr);
  const listed = await project.run(["--sessions"], { env: ENV });
  // A -p run's session is marked as such.
  assertEquals(listed.stdout.split("\n")[1]?.endsWith(`  -p: ${TASK}`), true, listed.stdout);
  const piped = await project.run([], { stdin: "/sessions\n", env: ENV });
  assertStringIncludes(piped.stdout, `  -p: ${TASK}\n`);
});

Deno.test("/mcp on a pipe shows a long tool description whole", async () => {
  await using server = await startFakeServer({ handler: () => text("ok") });
  await using project = await createTempProject();
  await Deno.mkdir(`${project.dir}/.powercode`);
  await writeMcpConfig(`${project.dir}/.powercode/mcp.json`, {
    fake: await fakeServerEntry(project.workspace, ["--long"]),
  });
  await project.writeProvider(provider(server.url));
  const result = await project.run([], { stdin: "/mcp\n", env: ENV });
  assertEquals(result.code, 0, result.stderr);
  const description = `Returns the text it is given, ${"word ".repeat(17)}end of description.`;
  assertStringIncludes(result.stdout, `    mcp__fake__echo         ${description}\n`);
});
