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
 * The `mcpServers` entry of the fake stdio server, run from the checkout by its absolute
 * path (servers start in "/", and a program in the workspace is the agent's to change), with
 * `flags` for the fake and `extra` fields for the entry; it logs what it receives to
 * `workspace/mcp-received.jsonl` (a temp project's /tmp path is hidden inside the sandbox,
 * the workspace is not).
 */
export function fakeServerEntry(
  workspace: string,
  flags: string[] = [],
  extra: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const log = `--log=${workspace}/${RECEIVED_FILE}`;
  return Promise.resolve({
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", "--no-config", "--no-lock", FAKE_SERVER.pathname, log, ...flags],
    ...extra,
  });
}

/** Copies the fake stdio server into `workspace`, as the agent could write a server there. */
export async function copyFakeServer(workspace: string): Promise<void> {
  await Deno.copyFile(FAKE_SERVER, `${workspace}/${FAKE_SERVER_FILE}`);
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
