/**
 * The lines that tell of servers starting in the background: how many are starting when the
 * prompt appears, and how the start ended.
 *
 * @module
 */
/** `mcp: 2 starting (alpha, slow); their tools join when ready`. */
export function startingLine(names: readonly string[]): string {
  return `mcp: ${names.length} starting (${names.join(", ")}); their tools join when ready`;
}

/** A server as its line counts it (see `McpServerStatus`). */
interface Counted {
  state: string;
  tools: readonly unknown[];
}

/** `mcp: 2 ready · 9 tools`, with `, 1 failed` when some did not start. */
export function startedLine(servers: readonly Counted[]): string {
  const ready = servers.filter((server) => server.state === "ready");
  const failed = servers.filter((server) => server.state === "failed").length;
  const tools = ready.reduce((sum, server) => sum + server.tools.length, 0);
  return `mcp: ${ready.length} ready · ${tools} tool${tools === 1 ? "" : "s"}` +
    (failed > 0 ? `, ${failed} failed` : "");
}
