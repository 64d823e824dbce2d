/**
 * Starts the MCP servers of a session, loading the MCP code only when a config file exists,
 * so a start without MCP costs two file lookups and nothing more.
 *
 * @module
 */
import type { EnvReader, McpServers, ProjectReview } from "../mcp/mod.ts";
import type { ServerLauncher, ToolSet } from "../tools/mod.ts";

/** Where MCP configuration and approvals live, and how to ask about a project's file. */
export interface McpSetup {
  /** Holds `mcp.json` (`.powercode/` in the workspace layout). */
  configDir: string;
  /** Holds the approvals of project `.mcp.json` files (powercode's state). */
  stateDir: string;
  /** Reads the variables `"env:NAME"` values name. */
  env: EnvReader;
  /** Asks the user about an unapproved project file; without it the file is skipped. */
  approve?: (review: ProjectReview) => Promise<boolean>;
  /** powercode's version, told to each server. */
  version: string;
  /**
   * Start the servers without waiting (the REPL on a terminal): a line says which are
   * starting, and the first request waits for them.
   */
  background?: boolean;
}

/** The session's parts the servers join. */
export interface McpParts {
  workspaceDir: string;
  toolSet: ToolSet;
  /** Starts stdio servers in the sandbox mode bash got. */
  servers: ServerLauncher;
  report: (line: string) => void;
}

/**
 * Starts the configured servers and adds their tools to the tool set; undefined when
 * neither `mcp.json` nor the workspace's `.mcp.json` exists.
 * Contract: as `startMcp`: throws `ConfigError` for a bad `mcp.json`.
 */
export async function startMcpServers(
  setup: McpSetup,
  parts: McpParts,
): Promise<McpServers | undefined> {
  // The names of mcp/load.ts, spelled here so that no MCP module loads without them.
  const configured = await exists(`${setup.configDir}/mcp.json`) ||
    await exists(`${parts.workspaceDir}/.mcp.json`);
  if (!configured) return undefined;
  const { startMcp, startingLine } = await import("../mcp/mod.ts");
  const { servers, ...rest } = parts;
  const started = await startMcp({ ...setup, ...rest, launcher: servers });
  const starting = started?.waiting().map((server) => server.name) ?? [];
  if (starting.length > 0) parts.report(startingLine(starting));
  return started;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    // Any other failure is the loader's to report.
    return !(error instanceof Deno.errors.NotFound);
  }
}
