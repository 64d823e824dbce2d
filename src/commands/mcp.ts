/**
 * `/mcp`: the MCP servers with their state, tool count and sandbox, and each tool with its
 * description; `/mcp restart NAME` restarts one.
 *
 * @module
 */
import type { McpServers, McpServerStatus } from "../mcp/mod.ts";
import { sanitizeLine, truncateWidth } from "../terminal/mod.ts";
import type { Command } from "./command.ts";

/** `/mcp [restart NAME]`. */
export const mcpCommand: Command = {
  name: "/mcp",
  usage: "/mcp",
  help: "MCP servers: state, sandbox, tools; /mcp restart NAME restarts one",
  run: async ({ app, screen }, args) =>
    screen.line(await runMcpCommand(args, app.mcp, screen.width)),
};

/** The line when no server is configured. */
export const NO_SERVERS = "No MCP server is configured: add one to mcp.json in powercode's " +
  'config directory (.powercode/ here), see "MCP servers" in the README';

/**
 * Runs `/mcp ARGS` on `servers`; returns the text to show.
 * Contract: throws a one-line reason for unknown arguments or a failed restart.
 */
export async function runMcpCommand(
  args: string,
  servers: McpServers | undefined,
  width: number,
): Promise<string> {
  const [verb = "", name, ...rest] = args.split(/\s+/).filter((word) => word !== "");
  if (verb === "") return servers ? formatMcpStatus(servers.status(), width) : NO_SERVERS;
  if (verb !== "restart" || name === undefined || rest.length > 0) {
    throw new TypeError(
      `Unknown use of /mcp "${sanitizeLine(args)}": type /mcp or /mcp restart NAME`,
    );
  }
  if (!servers) throw new Error(NO_SERVERS);
  const status = await servers.restart(name);
  return `Restarted MCP server "${status.name}": ${count(status.tools.length)}`;
}

/** The servers and their tools, each line cut to `width`. */
export function formatMcpStatus(servers: readonly McpServerStatus[], width: number): string {
  const files = [...new Set(servers.map((server) => server.file))].join(", ");
  const fit = (text: string) => truncateWidth(text, Math.max(20, width - 1));
  const lines = [`MCP servers (${files}):`];
  for (const server of servers) {
    const state = server.state === "ready" ? `ready · ${count(server.tools.length)}` : server.state;
    lines.push(fit(`  ${server.name} · ${state} · ${transport(server)}`));
    if (server.reason) lines.push(fit(`    ${sanitizeLine(server.reason)}`));
    const column = Math.max(0, ...server.tools.map((tool) => tool.name.length)) + 2;
    for (const tool of server.tools) {
      const about = sanitizeLine(tool.description.trim().split("\n")[0] ?? "");
      lines.push(fit(`    ${tool.name.padEnd(column)}${about}`));
    }
  }
  lines.push("/mcp restart NAME restarts one and lists its tools again.");
  return lines.join("\n");
}

function transport(server: McpServerStatus): string {
  if (server.kind === "http") return "http";
  switch (server.sandbox) {
    case "unsandboxed":
      return "stdio WITHOUT a sandbox (--unsandboxed-bash)";
    case "unavailable":
      return "stdio, refused: no bubblewrap";
    default:
      return `stdio in the sandbox, network ${server.network ? "on" : "off"}`;
  }
}

function count(tools: number): string {
  return tools === 1 ? "1 tool" : `${tools} tools`;
}
