/**
 * An MCP client session on one transport: the `initialize` handshake, the server's tool
 * list (all pages), and tool calls.
 *
 * @module
 */
import { isObject, isString } from "../core/mod.ts";
import { RpcPeer } from "./rpc.ts";
import type { Transport } from "./transport.ts";

/** The protocol version powercode asks for; older ones the server picks are accepted. */
export const PROTOCOL_VERSION = "2025-06-18";
const KNOWN_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/** Pages of `tools/list` read at most, so a server cannot page forever. */
const MAX_PAGES = 100;

/** A tool as the server lists it. */
export interface McpToolInfo {
  name: string;
  description: string;
  /** Its JSON schema of the arguments, as the server sent it. */
  inputSchema: Record<string, unknown>;
  /** The server's `annotations.readOnlyHint`: the tool changes nothing. */
  readOnly: boolean;
}

/** Limits of one call. */
export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
}

/** An initialized session with one server. */
export interface McpSession {
  /** The server's tools, in the order it listed them. */
  readonly tools: readonly McpToolInfo[];
  /** Why the connection ended; undefined while it is open. */
  readonly closed: string | undefined;
  /** Calls `name` with `args`; resolves with the server's result as it sent it. */
  callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<unknown>;
  /** Ends the session (and the program). Contract: never throws. */
  close(): Promise<void>;
}

/** How {@linkcode connect} starts. */
export interface ConnectOptions {
  /** Bounds the whole start: handshake and tool list. */
  signal: AbortSignal;
  timeoutMs: number;
  /** powercode's version, told to the server. */
  version: string;
  /** Hears once why the connection ended after it was set up. */
  onClose?: (reason: string) => void;
}

/**
 * Opens `transport`, initializes the session and lists the tools.
 * Contract: throws a one-line reason when any step fails; the transport is closed then.
 */
export async function connect(transport: Transport, options: ConnectOptions): Promise<McpSession> {
  const peer = new RpcPeer(transport, (reason) => options.onClose?.(reason));
  const limits = { signal: options.signal, timeoutMs: options.timeoutMs };
  try {
    await peer.open();
    const init = await peer.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "powercode", version: options.version },
    }, { ...limits, cancellable: false });
    const version = isObject(init) ? init.protocolVersion : undefined;
    if (!isString(version) || !KNOWN_VERSIONS.includes(version)) {
      throw new Error(
        `the server speaks protocol version ${JSON.stringify(version)}, not one of ${
          KNOWN_VERSIONS.join(", ")
        }`,
      );
    }
    transport.agreed(version);
    await peer.notify("notifications/initialized");
    const tools = await listTools(peer, limits);
    return {
      tools,
      get closed() {
        return peer.closed;
      },
      callTool: (name, args, call) => peer.request("tools/call", { name, arguments: args }, call),
      close: () => peer.close("it was stopped"),
    };
  } catch (error) {
    await peer.close();
    throw error;
  }
}

async function listTools(
  peer: RpcPeer,
  limits: { signal: AbortSignal; timeoutMs: number },
): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await peer.request("tools/list", cursor ? { cursor } : {}, limits);
    if (!isObject(result) || !Array.isArray(result.tools)) {
      throw new Error("the server's tool list is not a list");
    }
    for (const tool of result.tools) {
      if (!isObject(tool) || !isString(tool.name) || tool.name === "") continue;
      tools.push({
        name: tool.name,
        description: isString(tool.description) ? tool.description : "",
        inputSchema: isObject(tool.inputSchema) ? tool.inputSchema : { type: "object" },
        readOnly: isObject(tool.annotations) && tool.annotations.readOnlyHint === true,
      });
    }
    cursor = isString(result.nextCursor) && result.nextCursor !== ""
      ? result.nextCursor
      : undefined;
    if (cursor === undefined) break;
  }
  return tools;
}
