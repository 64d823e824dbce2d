import { assertEquals, assertRejects } from "@std/assert";
import { formatMcpStatus, NO_SERVERS, runMcpCommand } from "../../../src/commands/mcp.ts";

Deno.test("formatMcpStatus() shows each server's state, sandbox and tools, cut to the width", () => {
  assertEquals(
    formatMcpStatus([
      {
        name: "files",
        kind: "stdio",
        file: ".powercode/mcp.json",
        state: "ready",
        sandbox: "bwrap",
        network: false,
        tools: [
          { name: "mcp__files__read", description: "Read a file.\nMore about it." },
          { name: "mcp__files__list_directory", description: "List a directory ".repeat(9) },
        ],
      },
      {
        name: "search",
        kind: "stdio",
        file: ".powercode/mcp.json",
        state: "stopped",
        reason: "it exited with code 1: \u001b[31mboom",
        sandbox: "unsandboxed",
        network: true,
        tools: [],
      },
      { name: "web", kind: "http", file: "workspace/.mcp.json", state: "disabled", tools: [] },
    ], 80),
    [
      "MCP servers (.powercode/mcp.json, workspace/.mcp.json):",
      "  files · ready · 2 tools · stdio in the sandbox, network off",
      "    mcp__files__read            Read a file.",
      "    mcp__files__list_directory  List a directory List a directory List a direc…",
      "  search · stopped · stdio WITHOUT a sandbox (--unsandboxed-bash)",
      "    it exited with code 1: ^[[31mboom",
      "  web · disabled · http",
      "/mcp restart NAME restarts one and lists its tools again.",
    ].join("\n"),
  );
});

Deno.test("runMcpCommand() says how to configure servers, and refuses unknown arguments", async () => {
  assertEquals(await runMcpCommand("", undefined, 80), NO_SERVERS);
  await assertRejects(
    () => runMcpCommand("stop files", undefined, 80),
    TypeError,
    'Unknown use of /mcp "stop files": type /mcp or /mcp restart NAME',
  );
  await assertRejects(() => runMcpCommand("restart files", undefined, 80), Error, NO_SERVERS);
});
