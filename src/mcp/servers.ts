/**
 * The configured MCP servers of a session: started together at its start (waited for, or in
 * the background with the first request waiting), their tools in the live tool set in a
 * fixed order, calls routed to them, restarted one at a time.
 *
 * @module
 */
import type { ServerLauncher, ToolSet } from "../tools/mod.ts";
import { connect, type McpSession, type McpToolInfo } from "./client.ts";
import type { ServerConfig } from "./config.ts";
import { HttpTransport } from "./http_transport.ts";
import { RpcError } from "./rpc.ts";
import { compare, McpToolSlots } from "./server_tools.ts";
import { startedLine } from "./start_lines.ts";
import { StdioTransport } from "./stdio_transport.ts";

/** How long a server may take to start when its config sets no `timeoutMs`. */
export const START_TIMEOUT_MS = 15_000;
/** How long a call may take when the server's config sets no `timeoutMs`. */
export const CALL_TIMEOUT_MS = 60_000;

/** A server as `/mcp` shows it. */
export interface McpServerStatus {
  name: string;
  kind: "stdio" | "http";
  /** The config file it came from. */
  file: string;
  state: "starting" | "ready" | "failed" | "stopped" | "disabled";
  /** Why it failed or stopped. */
  reason?: string;
  /** stdio only: `bwrap`, or `unsandboxed` with --unsandboxed-bash. */
  sandbox?: "bwrap" | "unsandboxed" | "unavailable";
  /** stdio only: whether the sandbox keeps the network. */
  network?: boolean;
  /** Its tools as the model sees them, in the tool set's order. */
  tools: { name: string; description: string }[];
}

/** What {@linkcode McpServers} works with. */
export interface McpServersOptions {
  toolSet: ToolSet;
  launcher: ServerLauncher;
  /** powercode's version, told to each server. */
  version: string;
}

interface Entry {
  config: ServerConfig;
  session: McpSession | undefined;
  /** The tools of its last successful start; kept when it stops, so the tool set holds. */
  listed: readonly McpToolInfo[];
  state: McpServerStatus["state"];
  reason?: string;
  /** Counts starts, so a late end of an old session changes nothing. */
  generation: number;
  /** Settles when its start at the session's start has ended (ready or failed). */
  started?: Promise<void>;
}

/**
 * The servers of one session and their tools in the tool set.
 * Contract: the MCP tools follow the built-in ones, sorted by server then tool name, and
 * the set changes only when a server's tool list did, so requests stay byte-stable.
 */
export class McpServers {
  #entries: Entry[];
  #options: McpServersOptions;
  #slots: McpToolSlots;
  #started: Promise<string[]> | undefined;
  /** Aborts the starts in flight when the servers are stopped. */
  #stopping = new AbortController();

  /** Servers of `configs` (none started yet). */
  constructor(configs: readonly ServerConfig[], options: McpServersOptions) {
    this.#entries = [...configs]
      .sort((a, b) => compare(a.name, b.name))
      .map((config) => ({
        config,
        session: undefined,
        listed: [],
        state: config.enabled ? "stopped" : "disabled",
        generation: 0,
      }));
    this.#options = options;
    this.#slots = new McpToolSlots(options.toolSet);
  }

  /**
   * Starts every enabled server in parallel, each within its bound, then adds the tools of
   * those that started; `report` gets one line for each that did not.
   * Contract: never throws.
   */
  async start(report: (line: string) => void): Promise<void> {
    this.begin(report);
    for (const line of await this.settled()) report(line);
  }

  /**
   * Starts every enabled server in parallel, each within its bound, without waiting: the
   * tools of each join the tool set when it is ready. `report` gets the sandbox warning now;
   * {@linkcode settled} gives the lines of those that did not start.
   * Contract: never throws; a second call starts nothing.
   */
  begin(report: (line: string) => void): void {
    if (this.#started) return;
    const stdio = this.#entries.some((entry) =>
      entry.config.enabled && entry.config.kind === "stdio"
    );
    if (stdio && this.#options.launcher.mode === "unsandboxed") {
      report(
        "⚠ MCP servers run WITHOUT a sandbox (--unsandboxed-bash): they have your full user " +
          "rights and network access",
      );
    }
    const starts = this.#entries.filter((entry) => entry.config.enabled).map((entry) => {
      entry.state = "starting";
      entry.started = this.#connect(entry).then(() => this.#sync());
      return entry.started.then(() =>
        entry.state === "failed"
          ? [`⚠ MCP server "${entry.config.name}" did not start: ${entry.reason}`]
          : []
      );
    });
    this.#started = Promise.all(starts).then((lines) => lines.flat());
  }

  /**
   * Resolves when every server {@linkcode begin} started is ready or failed, with one line
   * for each that did not start; at once, with none, before `begin`.
   */
  settled(): Promise<string[]> {
    return this.#started ?? Promise.resolve([]);
  }

  /**
   * The servers still starting, each with the promise that settles when its start ended:
   * what the first request waits for (see `ToolSet.joining`).
   */
  waiting(): { name: string; ready: Promise<void> }[] {
    return this.#entries.flatMap((entry) =>
      entry.state === "starting" && entry.started
        ? [{ name: entry.config.name, ready: entry.started }]
        : []
    );
  }

  /**
   * Stops and starts the server `name` again and lists its tools anew.
   * Contract: throws a one-line reason when there is no such server, it is disabled, or it
   * did not start; the tool set then keeps its last tools, whose calls fail with the reason.
   */
  async restart(name: string): Promise<McpServerStatus> {
    const entry = this.#entries.find((candidate) => candidate.config.name === name);
    if (!entry) {
      const names = this.#entries.map((candidate) => candidate.config.name).join(", ");
      throw new Error(
        `Cannot restart MCP server "${name}": there is none; the servers are ${names}`,
      );
    }
    if (!entry.config.enabled) {
      throw new Error(
        `Cannot restart MCP server "${name}": it is disabled ("enabled": false in ${entry.config.file})`,
      );
    }
    if (entry.state === "starting") {
      throw new Error(`Cannot restart MCP server "${name}": it is still starting`);
    }
    await entry.session?.close();
    await this.#connect(entry);
    this.#sync();
    if (entry.state !== "ready") {
      throw new Error(`Cannot restart MCP server "${name}": ${entry.reason}`);
    }
    return this.#status(entry);
  }

  /** How the start went, in one line: `mcp: 2 ready · 9 tools`. */
  startedLine(): string {
    return startedLine(this.status());
  }

  /** Every configured server, sorted by name. */
  status(): McpServerStatus[] {
    return this.#entries.map((entry) => this.#status(entry));
  }

  /** Stops every server, and the starts still in flight. Contract: never throws. */
  async close(): Promise<void> {
    this.#stopping.abort();
    await this.#started;
    await Promise.all(this.#entries.map((entry) => entry.session?.close()));
  }

  /** {@linkcode close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #connect(entry: Entry): Promise<void> {
    const { config } = entry;
    const generation = ++entry.generation;
    const bound = config.timeoutMs ?? START_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(bound);
    const signal = AbortSignal.any([timeout, this.#stopping.signal]);
    entry.session = undefined;
    try {
      entry.session = await connect(this.#transport(config), {
        signal,
        timeoutMs: bound,
        version: this.#options.version,
        onClose: (reason) => {
          if (entry.generation !== generation) return;
          entry.state = "stopped";
          entry.reason = reason;
        },
      });
      entry.listed = entry.session.tools;
      entry.state = "ready";
      delete entry.reason;
    } catch (error) {
      entry.state = "failed";
      entry.reason = this.#stopping.signal.aborted
        ? "it was stopped while starting"
        : timeout.aborted
        ? `it did not answer within ${bound / 1000} s`
        : error instanceof Error
        ? error.message
        : String(error);
    }
  }

  #transport(config: ServerConfig): StdioTransport | HttpTransport {
    if (config.kind === "http") return new HttpTransport(config.url, config.headers);
    const { command, args, env, network } = config;
    return new StdioTransport(this.#options.launcher, { command, args, env, network });
  }

  /** Calls `tool` on the server of `entry`, with every failure as one line for the model. */
  async #call(
    entry: Entry,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<unknown> {
    const { name } = entry.config;
    const action = `Cannot call "${tool}" on MCP server "${name}"`;
    const again = `/mcp restart ${name} starts it again`;
    const session = entry.session;
    if (!session || session.closed !== undefined) {
      throw new Error(`${action}: it is not running (${entry.reason ?? "not started"}); ${again}`);
    }
    const timeoutMs = entry.config.timeoutMs ?? CALL_TIMEOUT_MS;
    try {
      return await session.callTool(tool, args, { signal, timeoutMs });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (session.closed !== undefined && !signal.aborted) {
        throw new Error(`${action}: the server stopped (${session.closed}); ${again}`);
      }
      if (error instanceof RpcError) throw new Error(`${action}: the server refused: ${reason}`);
      throw new Error(`${action}: ${reason}`);
    }
  }

  #sync(): void {
    this.#slots.update(this.#entries.map((entry) => ({
      server: entry.config.name,
      tools: entry.listed,
      call: (tool, args, signal) => this.#call(entry, tool, args, signal),
    })));
  }

  #status(entry: Entry): McpServerStatus {
    const { config } = entry;
    const tools = this.#slots.installed
      .filter((tool) => tool.server === config.name)
      .map(({ name, description }) => ({ name, description }));
    return {
      name: config.name,
      kind: config.kind,
      file: config.file,
      state: entry.state,
      ...(entry.reason !== undefined ? { reason: entry.reason } : {}),
      ...(config.kind === "stdio"
        ? { sandbox: this.#options.launcher.mode, network: config.network }
        : {}),
      tools,
    };
  }
}
