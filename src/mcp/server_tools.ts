/**
 * The MCP tools in the live tool set: every server's listed tools, after the built-in ones,
 * sorted by server and tool name, replaced only when a list changed.
 *
 * @module
 */
import type { ToolSet } from "../tools/mod.ts";
import type { McpToolInfo } from "./client.ts";
import { createMcpTool } from "./mcp_tool.ts";
import { mcpToolNames } from "./tool_names.ts";

/** Calls a server's tool by its own name. */
export type ServerCall = (
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<unknown>;

/** One server's tools, as it last listed them. */
export interface ServerTools {
  server: string;
  tools: readonly McpToolInfo[];
  call: ServerCall;
}

/** An MCP tool in the tool set. */
export interface InstalledTool {
  /** Its name in the tool set, `mcp__SERVER__TOOL`. */
  name: string;
  server: string;
  description: string;
}

/**
 * The MCP tools one object put in a tool set.
 * Contract: the tool set's version changes only when some server's list changed, so
 * requests stay byte-identical otherwise.
 */
export class McpToolSlots {
  #toolSet: ToolSet;
  #installed: InstalledTool[] = [];
  #signature = "[]";

  /** Slots in `toolSet`, empty so far. */
  constructor(toolSet: ToolSet) {
    this.#toolSet = toolSet;
  }

  /** The tools in the set now, in its order. */
  get installed(): readonly InstalledTool[] {
    return this.#installed;
  }

  /** Puts the tools of `servers` (sorted by server name) in the set, when they changed. */
  update(servers: readonly ServerTools[]): void {
    const keys = servers.flatMap((server) =>
      [...server.tools].sort((a, b) => compare(a.name, b.name)).map((info) => ({ server, info }))
    );
    const signature = JSON.stringify(
      keys.map((
        { server, info },
      ) => [server.server, info.name, info.description, info.inputSchema, info.readOnly]),
    );
    if (signature === this.#signature) return;
    const names = mcpToolNames(keys.map(({ server, info }) => ({
      server: server.server,
      tool: info.name,
    })));
    for (const { name } of this.#installed) this.#toolSet.remove(name);
    this.#installed = keys.map(({ server, info }, index) => {
      const tool = createMcpTool(names[index] ?? "", server.server, {
        info,
        call: (args, signal) => server.call(info.name, args, signal),
      });
      this.#toolSet.add(tool);
      return { name: tool.name, server: server.server, description: tool.description };
    });
    this.#signature = signature;
  }
}

/** Code-unit order: the same everywhere, unlike a locale's. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
