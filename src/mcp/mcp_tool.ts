/**
 * One tool of an MCP server as a powercode tool: the server's description and JSON schema
 * passed through, the call shown as its arguments in one line, the result made text.
 *
 * @module
 */
import type { Tool } from "../tools/mod.ts";
import { toToolOutput } from "./call_result.ts";
import type { McpToolInfo } from "./client.ts";

/** Calls the tool on its server; rejects with a one-line reason the model reads. */
export type McpCall = (args: Record<string, unknown>, signal: AbortSignal) => Promise<unknown>;

/**
 * The tool `info` of server `server`, named `name` in the tool set.
 * Contract: arguments go to the server as the model wrote them (the server checks them
 * against its schema); the effect is `exec`, since the server runs code; a tool the server
 * annotates `readOnlyHint` is marked read-only (plan mode lets it run).
 */
export function createMcpTool(
  name: string,
  server: string,
  options: { info: McpToolInfo; call: McpCall },
): Tool<Record<string, unknown>> {
  const { info, call } = options;
  return {
    name,
    description: info.description === ""
      ? `The tool "${info.name}" of the MCP server "${server}".`
      : info.description,
    effect: "exec",
    ...(info.readOnly ? { readOnly: true } : {}),
    parameters: {
      schema: info.inputSchema,
      parse: (args) => ({ ok: true, args }),
    },
    describe: (args) => Object.keys(args).length === 0 ? "" : JSON.stringify(args),
    execute: async (args, { signal }) => toToolOutput(await call(args, signal)),
  };
}
