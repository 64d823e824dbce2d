/**
 * MCP servers in the assembled agent (in this process, the fake stdio server in the real
 * sandbox): interruptions and timeouts told to the server, bounded starts, restarts, the
 * sandbox requirement, and the window check with MCP definitions.
 */
import { assert, assertEquals, assertRejects, assertStringIncludes } from "@std/assert";
import { INTERRUPTED_RESULT } from "../../src/agent/agent.ts";
import { assemble, type AssembleOptions, type Assembly } from "../../src/app/assemble.ts";
import { ConfigError } from "../../src/config/mod.ts";
import { estimateRequestTokens } from "../../src/context/tokens.ts";
import { SERVER_BWRAP_MISSING } from "../../src/sandbox/server_launcher.ts";
import { call, ScriptedModel } from "../support/scripted_model.ts";
import type { ScriptStep } from "../support/scripts.ts";
import { fakeServerEntry, receivedMessages, writeMcpConfig } from "../support/mcp.ts";

const signal = new AbortController().signal;

/** A temp start directory with workspace/ and .powercode/mcp.json. */
interface McpProject extends AsyncDisposable {
  dir: string;
  workspace: string;
  reports: string[];
  assemble(overrides?: Partial<AssembleOptions>, steps?: ScriptStep[]): Promise<Assembly>;
}

async function mcpProject(
  servers: (workspace: string) => Promise<Record<string, unknown>>,
): Promise<McpProject> {
  const dir = await Deno.makeTempDir({ prefix: "powercode-mcp-" });
  const workspace = `${dir}/workspace`;
  await Deno.mkdir(workspace);
  await Deno.mkdir(`${dir}/.powercode`);
  await writeMcpConfig(`${dir}/.powercode/mcp.json`, await servers(workspace));
  const reports: string[] = [];
  const assemblies: Assembly[] = [];
  return {
    dir,
    workspace,
    reports,
    async assemble(overrides = {}, steps = []) {
      const assembly = await assemble({
        config: { baseURL: "http://127.0.0.1:9/v1", apiKey: "k", model: "m", contextWindow: 32000 },
        workspaceDir: workspace,
        maxSteps: 5,
        model: new ScriptedModel(steps),
        report: (line) => reports.push(line),
        mcp: {
          configDir: `${dir}/.powercode`,
          stateDir: `${dir}/.powercode`,
          env: () => undefined,
          version: "0.0.0-test",
        },
        ...overrides,
      });
      assemblies.push(assembly);
      return assembly;
    },
    async [Symbol.asyncDispose]() {
      await Promise.all(assemblies.map((assembly) => assembly.mcp?.close()));
      await Deno.remove(dir, { recursive: true });
    },
  };
}

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function cancellations(messages: Record<string, unknown>[]): unknown[] {
  return messages.filter((message) => message.method === "notifications/cancelled")
    .map((message) => message.params);
}

function callIds(messages: Record<string, unknown>[]): unknown[] {
  return messages.filter((message) => message.method === "tools/call").map((message) => message.id);
}

Deno.test("Ctrl+C during an MCP call interrupts the task and tells the server to cancel", async () => {
  await using project = await mcpProject(async (workspace) => ({
    fake: await fakeServerEntry(workspace),
  }));
  const slow = call("c1", "mcp__fake__slow", {});
  const { agent } = await project.assemble({}, [{ toolCalls: [slow] }]);
  const controller = new AbortController();
  const running = agent.run("wait", controller.signal);
  await waitFor(
    async () => callIds(await receivedMessages(project.workspace)).length === 1,
    "the call to reach the server",
  );
  controller.abort();
  assertEquals(await running, { status: "interrupted" });
  const result = agent.view.history.find((message) => message.role === "tool");
  assertStringIncludes(result?.content ?? "", INTERRUPTED_RESULT);
  await waitFor(
    async () => cancellations(await receivedMessages(project.workspace)).length === 1,
    "the cancellation to reach the server",
  );
  const messages = await receivedMessages(project.workspace);
  assertEquals(cancellations(messages), [
    { requestId: callIds(messages)[0], reason: "interrupted by the user" },
  ]);
});

Deno.test("an MCP call over its server's timeoutMs is an error result, and the server is told", async () => {
  await using project = await mcpProject(async (workspace) => ({
    fake: await fakeServerEntry(workspace, [], { timeoutMs: 3000 }),
  }));
  const { tools } = await project.assemble();
  const result = await tools.execute(call("c1", "mcp__fake__slow", {}), signal);
  assertEquals(result.isError, true);
  assertEquals(
    result.content,
    'Error: Cannot call "slow" on MCP server "fake": no answer within 3 s; the server was ' +
      "told to cancel it",
  );
  await waitFor(
    async () => cancellations(await receivedMessages(project.workspace)).length === 1,
    "the cancellation",
  );
  const messages = await receivedMessages(project.workspace);
  assertEquals(cancellations(messages), [
    { requestId: callIds(messages)[0], reason: "timed out after 3 s" },
  ]);
});

Deno.test("a server that does not start within its bound is reported once and the session starts without it", async () => {
  await using project = await mcpProject(async (workspace) => ({
    fake: await fakeServerEntry(workspace),
    stuck: await fakeServerEntry(workspace, ["--hang"], { timeoutMs: 1500 }),
  }));
  const { tools, mcp } = await project.assemble();
  assertEquals(project.reports, [
    '⚠ MCP server "stuck" did not start: it did not answer within 1.5 s',
  ]);
  const names = tools.definitions().map((definition) => definition.name);
  assertEquals(names.filter((name) => name.startsWith("mcp__stuck")), []);
  assert(names.includes("mcp__fake__echo"));
  assertEquals(mcp?.status().map((server) => [server.name, server.state]), [
    ["fake", "ready"],
    ["stuck", "failed"],
  ]);
});

Deno.test("McpServers.restart() brings a crashed server back without changing the tool definitions", async () => {
  await using project = await mcpProject(async (workspace) => ({
    fake: await fakeServerEntry(workspace),
  }));
  const { tools, mcp } = await project.assemble();
  const before = tools.definitions();
  const crashed = await tools.execute(call("c1", "mcp__fake__crash", {}), signal);
  assertEquals(crashed.isError, true);
  assertEquals(mcp?.status()[0]?.state, "stopped");
  const status = await mcp?.restart("fake");
  assertEquals([status?.state, status?.tools.length], ["ready", 8]);
  const echoed = await tools.execute(call("c2", "mcp__fake__echo", { text: "back" }), signal);
  assertEquals([echoed.content, echoed.isError], ["back", false]);
  assertEquals(tools.definitions() === before, true);
  await assertRejects(
    () => mcp!.restart("nope"),
    Error,
    'Cannot restart MCP server "nope": there is none; the servers are fake',
  );
});

Deno.test("stdio MCP servers are refused without bubblewrap unless bash may run unsandboxed", async () => {
  await using project = await mcpProject(async (workspace) => ({
    fake: await fakeServerEntry(workspace),
  }));
  const probe = () => Promise.resolve(false);
  const refused = await project.assemble({ bash: { unsandboxedBash: false, probe } });
  assertEquals(refused.mcp?.status()[0]?.state, "failed");
  assertEquals(
    project.reports.at(-1),
    `⚠ MCP server "fake" did not start: ${SERVER_BWRAP_MISSING}`,
  );
  const unsandboxed = await project.assemble({ bash: { unsandboxedBash: true, probe } });
  assertEquals(unsandboxed.mcp?.status()[0]?.state, "ready");
  assertEquals(
    project.reports.at(-1),
    "⚠ MCP servers run WITHOUT a sandbox (--unsandboxed-bash): they have your full user " +
      "rights and network access",
  );
  const echoed = await unsandboxed.tools.execute(
    call("c1", "mcp__fake__echo", { text: "x" }),
    signal,
  );
  assertEquals(echoed.content, "x");
});

Deno.test("MCP tool definitions count in the window check at start and in every request", async () => {
  await using project = await mcpProject(async (workspace) => ({
    fake: await fakeServerEntry(workspace),
  }));
  const reserveTokens = 1000;
  const withMcp = await project.assemble();
  const overhead = withMcp.agent.requestOverhead;
  assert(overhead.tools.some((tool) => tool.name === "mcp__fake__echo"));
  const withAll = estimateRequestTokens({ ...overhead, messages: [] });
  const builtIn = estimateRequestTokens({
    ...overhead,
    tools: overhead.tools.filter((tool) => !tool.name.startsWith("mcp__")),
    messages: [],
  });
  assert(withAll > builtIn + 100, `${withAll} vs ${builtIn}`);
  const contextWindow = builtIn + reserveTokens + Math.floor((withAll - builtIn) / 2);
  const config = { baseURL: "http://127.0.0.1:9/v1", apiKey: "k", model: "m", contextWindow };
  const elsewhere = `${project.dir}/elsewhere`;
  const none = { configDir: elsewhere, stateDir: elsewhere, env: () => undefined, version: "0" };
  await project.assemble({ config: { ...config, reserveTokens }, mcp: none });
  await assertRejects(
    () => project.assemble({ config: { ...config, reserveTokens } }),
    ConfigError,
    `field "contextWindow" (${contextWindow}) is too small`,
  );
});
