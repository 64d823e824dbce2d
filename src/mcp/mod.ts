/**
 * MCP servers as tools: the config files, the approval of a project's `.mcp.json`, the
 * servers (stdio ones in the sandbox, or streamable HTTP) and their tools in the tool set.
 *
 * @module
 */
import type { ServerLauncher, ToolSet } from "../tools/mod.ts";
import { type LoadOptions, loadServerConfigs } from "./load.ts";
import { McpServers } from "./servers.ts";

export type { EnvReader, ServerConfig } from "./config.ts";
export { type LoadOptions, PROJECT_FILE, type ProjectReview, USER_FILE } from "./load.ts";
export { McpServers, type McpServerStatus } from "./servers.ts";
export { Approvals, sha256 } from "./approvals.ts";
export { startingLine } from "./start_lines.ts";

/** What {@linkcode startMcp} needs besides the config files. */
export interface StartOptions extends LoadOptions {
  toolSet: ToolSet;
  launcher: ServerLauncher;
  /** powercode's version, told to each server. */
  version: string;
  /**
   * Start the servers without waiting for them: their tools join when ready, and the tool
   * set's first request waits for those still starting (see `ToolSet.joining`).
   */
  background?: boolean;
}

/**
 * Loads the configured servers, starts the enabled ones in parallel and adds their tools
 * to `toolSet` (in the background with `background`); undefined when no server is configured.
 * Contract: throws `ConfigError` for a bad user config; a server that does not start is
 * reported once through `report` and the session goes on without it.
 */
export async function startMcp(options: StartOptions): Promise<McpServers | undefined> {
  const configs = await loadServerConfigs(options);
  if (configs.length === 0) return undefined;
  const servers = new McpServers(configs, options);
  if (!options.background) {
    await servers.start(options.report);
    return servers;
  }
  servers.begin(options.report);
  options.toolSet.joining(servers);
  return servers;
}
