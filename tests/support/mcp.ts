/**
 * MCP test helpers: the fake stdio server put where the sandbox can see it (the workspace),
 * its config entry, and config files.
 *
 * @module
 */
const FAKE_SERVER = new URL("./fake_mcp_server.ts", import.meta.url);
/** The fake server's file name in the workspace. */
export const FAKE_SERVER_FILE = "fake_mcp_server.ts";
/** The file the fake server appends every message it receives to, in the workspace. */
export const RECEIVED_FILE = "mcp-received.jsonl";

/**
 * Copies the fake stdio server into `workspace` (a temp project's /tmp path is hidden
 * inside the sandbox, the workspace is not) and returns its `mcpServers` entry, with
 * `flags` for the fake and `extra` fields for the entry.
 */
export async function fakeServerEntry(
  workspace: string,
  flags: string[] = [],
  extra: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  await Deno.copyFile(FAKE_SERVER, `${workspace}/${FAKE_SERVER_FILE}`);
  return {
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", "--no-config", "--no-lock", FAKE_SERVER_FILE, ...flags],
    ...extra,
  };
}

/** Writes `{"mcpServers": servers}` to `path`. */
export async function writeMcpConfig(
  path: string,
  servers: Record<string, unknown>,
): Promise<void> {
  await Deno.writeTextFile(path, `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`);
}

/** The messages the fake server received, in order. */
export async function receivedMessages(workspace: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(`${workspace}/${RECEIVED_FILE}`).catch(() => "");
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
}
