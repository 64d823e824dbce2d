/**
 * The live set of tools the agent calls through: tools can be added and removed while a
 * session runs, every change bumps a version, and the definitions sent to the model are
 * rebuilt only when the version changed.
 *
 * @module
 */
import {
  type CallDescription,
  parseToolArguments,
  type ToolCall,
  type ToolDefinition,
  type ToolEffect,
  type ToolResult,
} from "../core/mod.ts";
import { ALLOW_ALL, type ToolPolicy } from "./policy.ts";
import type { CallGrant, Tool, ToolPaths } from "./tool.ts";

/** How a {@linkcode ToolSet} decides about calls. */
export interface ToolSetOptions {
  /** Runs before every call whose arguments passed (default: allow every call). */
  policy?: ToolPolicy;
  /** Tools deliberately not in the set, by name: why, the error a call of one gets. */
  withheld?: ReadonlyMap<string, string>;
}

/** Tools that join the set later (MCP servers starting in the background). */
export interface Joining {
  /** Those still on their way, by name, each with the promise that settles when it came or failed. */
  waiting(): readonly { name: string; ready: Promise<unknown> }[];
}

/** A call whose tool exists and whose arguments passed its parser. */
interface PreparedCall {
  tool: Tool;
  args: unknown;
}

/**
 * Dispatches tool calls by name, through one policy, and turns every failure into an error
 * result.
 */
export class ToolSet {
  #tools = new Map<string, Tool>();
  #version = 0;
  #definitions: { version: number; list: ToolDefinition[] } | undefined;
  #policy: ToolPolicy;
  #joining: Joining[] = [];
  #withheld: ReadonlyMap<string, string>;

  /** Creates a set of the given tools (version 0); names must be unique. */
  constructor(tools: readonly Tool[] = [], options: ToolSetOptions = {}) {
    for (const tool of tools) this.add(tool);
    this.#version = 0;
    this.#policy = options.policy ?? ALLOW_ALL;
    this.#withheld = options.withheld ?? new Map();
  }

  /** Tools of `source` join later: {@linkcode joined} waits for them. */
  joining(source: Joining): void {
    this.#joining.push(source);
  }

  /**
   * Waits until no tool is on its way, telling `onWait` the names still awaited each time
   * they change; resolves at once when none is. The first request waits here, so the
   * definitions it sends are those of the whole session.
   * Contract: rejects with the signal's reason when `signal` aborts first.
   */
  async joined(signal: AbortSignal, onWait: (names: readonly string[]) => void): Promise<void> {
    for (;;) {
      const waiting = this.#joining.flatMap((source) => source.waiting());
      if (waiting.length === 0) return;
      signal.throwIfAborted();
      onWait(waiting.map((item) => item.name));
      const aborted = Promise.withResolvers<void>();
      const onAbort = () => aborted.reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      try {
        await Promise.race([...waiting.map((item) => item.ready), aborted.promise]);
      } finally {
        signal.removeEventListener("abort", onAbort);
      }
    }
  }

  /** Counts the changes to the set: equal versions mean equal definitions. */
  get version(): number {
    return this.#version;
  }

  /**
   * Adds `tool` after the others.
   * Contract: throws a `TypeError` when a tool of the same name is in the set.
   */
  add(tool: Tool): void {
    if (this.#tools.has(tool.name)) {
      throw new TypeError(
        `Cannot add tool "${tool.name}": the set already has a tool of that name`,
      );
    }
    this.#tools.set(tool.name, tool);
    this.#version++;
  }

  /** Removes the tool named `name`; false when there is none. */
  remove(name: string): boolean {
    const removed = this.#tools.delete(name);
    if (removed) this.#version++;
    return removed;
  }

  /**
   * The definitions sent to the model, in the order the tools were added.
   * Contract: the same array while the version is unchanged, so requests stay byte-identical.
   */
  definitions(): ToolDefinition[] {
    if (this.#definitions?.version !== this.#version) {
      const list = [...this.#tools.values()].map(({ name, description, parameters }) => ({
        name,
        description,
        parameters: parameters.schema,
      }));
      this.#definitions = { version: this.#version, list };
    }
    return this.#definitions.list;
  }

  /** The system prompt's lines on using the tools, in the order the tools were added. */
  guidance(): string[] {
    return [...this.#tools.values()].flatMap((tool) => tool.guidance ?? []);
  }

  /**
   * How `call` is shown when it starts: the tool's own text for its arguments, empty for an
   * unknown tool or arguments its parser refuses, or malformed when they are not a JSON object.
   */
  describe(call: ToolCall): CallDescription {
    const parsed = parseToolArguments(call.arguments);
    if (!parsed.ok) return { kind: "malformed" };
    const prepared = this.#prepare(call);
    return {
      kind: "text",
      text: typeof prepared === "string" ? "" : prepared.tool.describe(prepared.args),
    };
  }

  /** The effect the tool named `name` declares; undefined when the set has no such tool. */
  effectOf(name: string): ToolEffect | undefined {
    return this.#tools.get(name)?.effect;
  }

  /**
   * The workspace paths `call` reads or modifies, as the tool declares them.
   * Contract: never throws; a call that would not run touches nothing.
   */
  pathsOf(call: ToolCall): ToolPaths {
    const prepared = this.#prepare(call);
    return typeof prepared === "string" ? {} : pathsOf(prepared);
  }

  /** Whether calls of the tool named `name` may run at the same time (see `Tool.concurrent`). */
  concurrent(name: string): boolean {
    return this.#tools.get(name)?.concurrent === true;
  }

  /**
   * Runs one tool call, once the policy allowed it; `onOutput` receives live output of tools
   * that have it (commands).
   * Contract: never throws; unknown tools, bad JSON, arguments the tool's parser refuses,
   * refusals of the policy and tool failures become error results the model reads.
   */
  async execute(
    call: ToolCall,
    signal: AbortSignal,
    onOutput?: (text: string) => void,
  ): Promise<ToolResult> {
    const admitted = await this.admit(call, signal, onOutput);
    return typeof admitted === "function" ? await admitted() : admitted;
  }

  /**
   * Decides about one call as {@linkcode execute} does (the policy may ask the user), without
   * running it: the error result of a call that will not run, or the function that runs it.
   * Contract: never throws, and neither does the function it returns.
   */
  async admit(
    call: ToolCall,
    signal: AbortSignal,
    onOutput?: (text: string) => void,
  ): Promise<ToolResult | (() => Promise<ToolResult>)> {
    const prepared = this.#prepare(call);
    if (typeof prepared === "string") return failure(prepared);
    const { tool, args } = prepared;
    try {
      const request = {
        name: tool.name,
        effect: tool.effect,
        ...(tool.readOnly ? { readOnly: true } : {}),
        args,
        paths: pathsOf(prepared),
        id: call.id,
        signal,
      };
      const verdict = await this.#policy(request);
      if (verdict.kind === "refuse") return failure(`Cannot run ${tool.name}: ${verdict.reason}`);
      const run = (grant?: CallGrant) =>
        tool.execute(args, {
          signal,
          ...(onOutput ? { onOutput } : {}),
          ...(grant ? { grant } : {}),
        });
      return async () => {
        try {
          const output = await (verdict.around ? verdict.around(run) : run());
          return {
            content: output.content,
            summary: output.summary,
            isError: output.isError ?? false,
            ...(output.details ? { details: output.details } : {}),
            ...(output.image ? { image: output.image } : {}),
            ...(output.session !== undefined ? { session: output.session } : {}),
          };
        } catch (error) {
          return failure(error instanceof Error ? error.message : String(error));
        }
      };
    } catch (error) {
      return failure(error instanceof Error ? error.message : String(error));
    }
  }

  /** Finds the tool and parses the arguments with its parser; a runnable call or the problem. */
  #prepare(call: ToolCall): PreparedCall | string {
    const tool = this.#tools.get(call.name);
    const withheld = this.#withheld.get(call.name);
    if (!tool && withheld !== undefined) return `Cannot run ${call.name}: ${withheld}`;
    if (!tool) {
      const known = [...this.#tools.keys()].join(", ");
      return `Unknown tool "${call.name}": available tools are ${known}`;
    }
    const parsed = parseToolArguments(call.arguments);
    if (!parsed.ok) return `Cannot run ${call.name}: ${parsed.error}`;
    const checked = tool.parameters.parse(parsed.args);
    if (!checked.ok) return `Cannot run ${call.name}: ${checked.problem}`;
    return { tool, args: checked.args };
  }
}

function pathsOf({ tool, args }: PreparedCall): ToolPaths {
  return tool.paths?.(args) ?? {};
}

function failure(message: string): ToolResult {
  return { content: `Error: ${message}`, summary: message, isError: true };
}
