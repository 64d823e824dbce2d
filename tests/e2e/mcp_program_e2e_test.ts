/**
 * End-to-end: an MCP server's program never comes from what the agent wrote in the workspace
 * (issue 35, item 3). Servers start in "/", a relative command path is refused, and the
 * approval of a project's `.mcp.json` covers the program files it names in the project.
 */
import { assertEquals, assertStringIncludes } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { text } from "../support/scripts.ts";
import { createTempProject } from "../support/project.ts";
import { ENV, provider } from "../support/sessions.ts";
import { copyFakeServer, FAKE_SERVER_FILE, RECEIVED_FILE, writeMcpConfig } from "../support/mcp.ts";
import { sha256 } from "../../src/mcp/approvals.ts";

const DENO_RUN = ["run", "-A", "--quiet", "--no-config", "--no-lock"];

Deno.test("an MCP server does not start in the workspace: a script the agent wrote there by a relative path is not run", async () => {
  await using server = await startFakeServer({ handler: () => text("ok") });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  await copyFakeServer(project.workspace);
  await Deno.mkdir(`${project.dir}/.powercode`);
  await writeMcpConfig(`${project.dir}/.powercode/mcp.json`, {
    fake: {
      command: Deno.execPath(),
      args: [...DENO_RUN, FAKE_SERVER_FILE, `--log=${project.workspace}/${RECEIVED_FILE}`],
    },
  });
  const result = await project.run(["-p", "hi"], { env: ENV });
  assertEquals(result.code, 0, result.stderr);
  assertStringIncludes(result.stderr, '⚠ MCP server "fake" did not start');
  const tools = server.requests.at(-1)?.body?.tools?.map((tool) => tool.function.name) ?? [];
  assertEquals(tools.filter((name) => name.startsWith("mcp__")), []);
});

Deno.test("powercode refuses an MCP server whose command is a relative path, naming server and field", async () => {
  await using server = await startFakeServer({ handler: () => text("ok") });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  await Deno.mkdir(`${project.dir}/.powercode`);
  await writeMcpConfig(`${project.dir}/.powercode/mcp.json`, {
    local: { command: "bin/server" },
  });
  const result = await project.run(["-p", "hi"], { env: ENV });
  assertEquals(result.code, 2, result.stderr);
  assertStringIncludes(
    result.stderr,
    'server "local" field "command" is the relative path "bin/server": name a program found ' +
      "through PATH or give its absolute path",
  );
  assertEquals(server.requests.length, 0);
});

Deno.test("the approval of a project's .mcp.json covers the program file it runs from the project", async () => {
  await using server = await startFakeServer({ handler: () => text("ok") });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  await copyFakeServer(project.workspace);
  const program = `${await Deno.realPath(project.workspace)}/${FAKE_SERVER_FILE}`;
  const file = `${project.workspace}/.mcp.json`;
  const log = `--log=${project.workspace}/${RECEIVED_FILE}`;
  await writeMcpConfig(file, {
    proj: { command: Deno.execPath(), args: [...DENO_RUN, program, log] },
  });
  const names = () =>
    (server.requests.at(-1)?.body?.tools ?? []).map((tool) => tool.function.name)
      .filter((name) => name.startsWith("mcp__"));
  await Deno.mkdir(`${project.dir}/.powercode`);
  const approve = async (hash: string) =>
    await Deno.writeTextFile(
      `${project.dir}/.powercode/mcp-approvals.json`,
      JSON.stringify({ approvals: { [await Deno.realPath(file)]: hash } }),
    );
  const run = async () => {
    const result = await project.run(["-p", "hi"], { env: ENV });
    assertEquals(result.code, 0, result.stderr);
    return result.stderr;
  };
  const skipped = 'MCP servers of "workspace/.mcp.json" are skipped: its content is not approved';

  // What an approval of the file's bytes alone recorded does not cover the program.
  await approve(await sha256(await Deno.readFile(file)));
  assertStringIncludes(await run(), skipped);
  assertEquals(names(), []);

  // Approved with the program as it is now, the server starts.
  const bytes = await Deno.readFile(program);
  const { approvalHash } = await import("../../src/mcp/program_files.ts");
  await approve(
    await approvalHash(await Deno.readFile(file), [
      { path: program, state: await sha256(bytes) },
    ]),
  );
  const started = await run();
  assertEquals(names().length, 8, started);

  // The agent changes the program after the approval: the servers are skipped again.
  await Deno.writeTextFile(program, "\n// changed by the agent\n", { append: true });
  assertStringIncludes(await run(), skipped);
  assertEquals(names(), []);
});
