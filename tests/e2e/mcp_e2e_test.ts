/**
 * End-to-end: MCP servers through `deno task start` (the real permission set) in a temp
 * project, against the fake stdio server (in the sandbox) and the fake HTTP server, with the
 * strict fake model server.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { sequence, text, toolCall, toolCalls } from "../support/scripts.ts";
import { createTempProject, type TempProject } from "../support/project.ts";
import { ENV, provider } from "../support/sessions.ts";
import { fakeServerEntry, receivedMessages, writeMcpConfig } from "../support/mcp.ts";
import { startFakeMcpHttp } from "../support/fake_mcp_http.ts";
import { sha256 } from "../../src/mcp/approvals.ts";

/** The fake stdio server's tools as the model sees them, sorted. */
const FAKE_TOOLS = [
  "mcp__fake__connect",
  "mcp__fake__crash",
  "mcp__fake__dotted_name",
  "mcp__fake__echo",
  "mcp__fake__env",
  "mcp__fake__fail",
  "mcp__fake__picture",
  "mcp__fake__slow",
];
const BUILT_IN = [
  "read_file",
  "write_file",
  "edit_file",
  "bash",
  "todo",
  "grep",
  "glob",
  "ls",
  "bash_output",
  "bash_kill",
  "fetch",
  "task",
];

async function projectWithServer(
  servers: (workspace: string) => Promise<Record<string, unknown>>,
): Promise<TempProject> {
  const project = await createTempProject();
  await Deno.mkdir(`${project.dir}/.powercode`);
  await writeMcpConfig(`${project.dir}/.powercode/mcp.json`, await servers(project.workspace));
  return project;
}

Deno.test("powercode sends an MCP server's tools with their schemas, in the same order on every start", async () => {
  await using server = await startFakeServer({ handler: () => text("ok") });
  await using project = await projectWithServer(async (workspace) => ({
    fake: await fakeServerEntry(workspace),
  }));
  await project.writeProvider(provider(server.url));
  for (const _ of [1, 2]) {
    const result = await project.run(["-p", "hi"], { env: ENV });
    assertEquals(result.code, 0, result.stderr);
  }
  const [first, second] = server.requests.map((request) => request.body?.tools ?? []);
  assertEquals(first?.map((tool) => tool.function.name), [...BUILT_IN, ...FAKE_TOOLS]);
  assertEquals(JSON.stringify(second), JSON.stringify(first));
  assertEquals(first?.find((tool) => tool.function.name === "mcp__fake__echo")?.function, {
    name: "mcp__fake__echo",
    description: "Returns the text it is given.",
    parameters: {
      type: "object",
      properties: { text: { type: "string", description: "What to send back" } },
      required: ["text"],
    },
  });
});

Deno.test("powercode pairs an MCP call's result with its call, shows it like other tools, and goes on after the server crashed", async () => {
  await using server = await startFakeServer({
    handler: sequence([
      toolCalls([
        { name: "mcp__fake__echo", args: { text: "hello from the model" }, id: "call_a" },
        { name: "mcp__fake__picture", args: {}, id: "call_b" },
      ]),
      toolCall("mcp__fake__crash", {}),
      toolCall("mcp__fake__echo", { text: "still there?" }),
      text("The server is gone."),
    ]),
  });
  await using project = await projectWithServer(async (workspace) => ({
    fake: await fakeServerEntry(workspace),
  }));
  await project.writeProvider(provider(server.url));
  const result = await project.run(["-p", "use the server"], { env: ENV });
  assertEquals(result.code, 0, result.stderr);
  assertEquals(result.stdout, "The server is gone.\n");
  assertStringIncludes(result.stderr, '● mcp__fake__echo {"text":"hello from the model"}\n');
  assertStringIncludes(result.stderr, "✓ 1 line");
  const messages = server.requests.at(-1)?.body?.messages ?? [];
  const results = messages.flatMap((message) =>
    message.role === "tool" ? [[message.tool_call_id, message.content]] : []
  );
  assertEquals(results.slice(0, 2), [
    ["call_a", "hello from the model"],
    [
      "call_b",
      "[image/png image, 20 B: not shown, powercode passes only text to the model]\n" +
      "a one-pixel picture",
    ],
  ]);
  assertMatch(
    results[2]?.[1] ?? "",
    /^Error: Cannot call "crash" on MCP server "fake": the server stopped \(it exited with code 7: fake server: crashing on purpose\); \/mcp restart fake starts it again$/,
  );
  assertMatch(
    results[3]?.[1] ?? "",
    /^Error: Cannot call "echo" on MCP server "fake": it is not running \(it exited with code 7/,
  );
});

Deno.test("powercode's stdio MCP servers get no network unless the config grants it", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let accepted = 0;
  const accepting = (async () => {
    for await (const connection of listener) {
      accepted++;
      connection.close();
    }
  })();
  try {
    const { port } = listener.addr;
    await using server = await startFakeServer({
      handler: sequence([
        toolCalls([
          { name: "mcp__closed__connect", args: { port } },
          { name: "mcp__open__connect", args: { port } },
        ]),
        text("done"),
      ]),
    });
    await using project = await projectWithServer(async (workspace) => ({
      closed: await fakeServerEntry(workspace),
      open: await fakeServerEntry(workspace, [], { network: true }),
    }));
    await project.writeProvider(provider(server.url));
    const result = await project.run(["-p", "connect"], { env: ENV });
    assertEquals(result.code, 0, result.stderr);
    const results = (server.requests.at(-1)?.body?.messages ?? [])
      .flatMap((message) => message.role === "tool" ? [message.content] : []);
    assertEquals(results, ["cannot connect: ConnectionRefused", "connected"]);
    assertEquals(accepted, 1);
  } finally {
    listener.close();
    await accepting.catch(() => {});
  }
});

Deno.test("powercode gives a stdio MCP server only its own env, reading env:NAME values", async () => {
  await using server = await startFakeServer({
    handler: sequence([toolCall("mcp__fake__env", {}), text("done")]),
  });
  await using project = await projectWithServer(async (workspace) => ({
    fake: await fakeServerEntry(workspace, [], {
      env: { TOKEN: "env:POWERCODE_MCP_TOKEN", PLAIN: "literal" },
    }),
  }));
  await project.writeProvider(provider(server.url));
  const result = await project.run(["-p", "env"], {
    env: { ...ENV, POWERCODE_MCP_TOKEN: "tok-123", NODE_V8_COVERAGE: "/tmp/cov" },
  });
  assertEquals(result.code, 0, result.stderr);
  const env = JSON.parse(
    (server.requests.at(-1)?.body?.messages ?? []).find((message) => message.role === "tool")
      ?.content ?? "{}",
  );
  assertEquals({ ...env, PWD: undefined, SHLVL: undefined }, {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: "/tmp",
    LANG: "C.UTF-8",
    TERM: "dumb",
    TOKEN: "tok-123",
    PLAIN: "literal",
    PWD: undefined,
    SHLVL: undefined,
  });
});

Deno.test("powercode ignores a project's .mcp.json until its exact content is approved", async () => {
  await using server = await startFakeServer({ handler: () => text("ok") });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const file = `${project.workspace}/.mcp.json`;
  await writeMcpConfig(file, { proj: await fakeServerEntry(project.workspace) });
  const names = () => server.requests.at(-1)?.body?.tools?.map((tool) => tool.function.name);

  const unapproved = await project.run(["-p", "hi"], { env: ENV });
  assertEquals(unapproved.code, 0, unapproved.stderr);
  assertEquals(
    unapproved.stderr.split("\n").filter((line) => line.includes(".mcp.json")),
    [
      '⚠ MCP servers of "workspace/.mcp.json" are skipped: its content is not approved; start ' +
      "powercode on a terminal to review it",
    ],
  );
  assertEquals(names(), BUILT_IN);
  assertEquals(await receivedMessages(project.workspace), []);

  const approvals = `${project.dir}/.powercode/mcp-approvals.json`;
  const key = await Deno.realPath(file);
  const approve = async () =>
    await Deno.writeTextFile(
      approvals,
      JSON.stringify({ approvals: { [key]: await sha256(await Deno.readFile(file)) } }),
    );
  await approve();
  const approved = await project.run(["-p", "hi"], { env: ENV });
  assertEquals(approved.code, 0, approved.stderr);
  assertEquals(names(), [...BUILT_IN, ...FAKE_TOOLS.map((name) => name.replace("fake", "proj"))]);

  await Deno.writeTextFile(file, (await Deno.readTextFile(file)).replace("--quiet", "-q"));
  const changed = await project.run(["-p", "hi"], { env: ENV });
  assertStringIncludes(changed.stderr, "its content is not approved");
  assertEquals(names(), BUILT_IN);
});

Deno.test("powercode lists its MCP servers and their tools with /mcp, and restarts one", async () => {
  await using server = await startFakeServer({ handler: () => text("ok") });
  await using project = await projectWithServer(async (workspace) => ({
    fake: await fakeServerEntry(workspace),
    broken: await fakeServerEntry(workspace, ["--exit"]),
    off: await fakeServerEntry(workspace, [], { enabled: false }),
  }));
  await project.writeProvider(provider(server.url));
  const result = await project.run([], {
    stdin: "/mcp\n/mcp restart fake\n/mcp restart broken\n",
    env: ENV,
  });
  // Piped input: a command that failed makes the exit code 1.
  assertEquals(result.code, 1, result.stderr);
  assertEquals(result.stdout.split("\n").slice(0, 7), [
    '⚠ MCP server "broken" did not start: it exited with code 3: fake server: refusing to start',
    "MCP servers (.powercode/mcp.json):",
    "  broken · failed · stdio in the sandbox, network off",
    "    it exited with code 3: fake server: refusing to start",
    "  fake · ready · 8 tools · stdio in the sandbox, network off",
    "    mcp__fake__connect      Opens a TCP connection to 127.0.0.1.",
    "    mcp__fake__crash        Ends the server.",
  ]);
  assertStringIncludes(result.stdout, "  off · disabled · stdio in the sandbox, network off\n");
  assertEquals(result.stdout.split("\n").slice(-3), [
    'Restarted MCP server "fake": 8 tools',
    '✗ Cannot restart MCP server "broken": it exited with code 3: fake server: refusing to start',
    "",
  ]);
});

Deno.test("powercode calls tools of a streamable HTTP MCP server, with its session and headers", async () => {
  await using mcp = startFakeMcpHttp({ token: "tok-9" });
  await using server = await startFakeServer({
    handler: sequence([toolCall("mcp__web__lookup", { word: "moss" }), text("done")]),
  });
  await using project = await projectWithServer(() =>
    Promise.resolve({
      web: { url: mcp.url, headers: { Authorization: "env:POWERCODE_WEB_AUTH" } },
    })
  );
  await project.writeProvider(provider(server.url));
  const result = await project.run(["-p", "look up moss"], {
    env: { ...ENV, POWERCODE_WEB_AUTH: "Bearer tok-9" },
  });
  assertEquals(result.code, 0, result.stderr);
  const messages = server.requests.at(-1)?.body?.messages ?? [];
  assertEquals(messages.at(-1), { role: "tool", content: "moss: a word", tool_call_id: "call_1" });
  assertEquals(
    mcp.requests.map((request) => [
      request.method,
      (request.body as { method?: string } | undefined)?.method,
      request.headers["mcp-session-id"],
      request.headers["mcp-protocol-version"],
    ]),
    [
      ["POST", "initialize", undefined, undefined],
      ["POST", "notifications/initialized", "session-7f3a", "2025-06-18"],
      ["POST", "tools/list", "session-7f3a", "2025-06-18"],
      ["POST", "tools/call", "session-7f3a", "2025-06-18"],
      ["DELETE", undefined, "session-7f3a", "2025-06-18"],
    ],
  );
  assert(mcp.requests.every((request) => request.headers.authorization === "Bearer tok-9"));
});

Deno.test("powercode exits 2 with one line naming the file, server and field of a bad mcp.json", async () => {
  await using project = await projectWithServer(() =>
    Promise.resolve({
      fs: { command: "x", args: "not a list", network: "yes" },
      web: { url: "ftp://x", network: true },
    })
  );
  await project.writeProvider(provider("http://127.0.0.1:9/v1"));
  const result = await project.run(["-p", "hi"], { env: ENV });
  assertEquals(result, {
    code: 2,
    stdout: "",
    stderr: 'powercode: Invalid MCP config ".powercode/mcp.json": server "fs" field "args" must ' +
      'be an array of strings; server "fs" field "network" must be true or false; server "web" ' +
      'field "url" must be an http(s) URL; server "web" field "network" applies only to servers ' +
      "with a command\n",
  });
});
