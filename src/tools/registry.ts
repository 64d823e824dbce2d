/**
 * The dispatcher the agent calls tools through.
 *
 * @module
 */
import { parseToolArguments, type ToolCall, type ToolDefinition } from "../core/mod.ts";
import {
  checkArguments,
  type Tool,
  type ToolContext,
  toolDefinition,
  type ToolPaths,
} from "./tool.ts";

export type { Tool, ToolContext, ToolOutput, ToolPaths } from "./tool.ts";

/** The outcome of one tool call, as recorded in history and shown on the terminal. */
export interface ToolResult {
  ok: boolean;
  content: string;
  summary: string;
}

/** Dispatches tool calls by name and turns every failure into an error result. */
export class ToolRegistry {
  #tools: Map<string, Tool>;

  /** Creates a registry of the given tools; names must be unique. */
  constructor(tools: Tool[]) {
    this.#tools = new Map(tools.map((tool) => [tool.name, tool]));
  }

  /** The definitions sent to the model, in registration order. */
  definitions(): ToolDefinition[] {
    return [...this.#tools.values()].map(toolDefinition);
  }

  /**
   * The workspace paths `call` reads or modifies, as the tool declares them.
   * Contract: never throws; a call that would not run touches nothing.
   */
  pathsOf(call: ToolCall): ToolPaths {
    const prepared = this.#prepare(call);
    return typeof prepared === "string" ? {} : prepared.paths;
  }

  /**
   * Runs one tool call; `onOutput` receives live output of tools that have it (bash).
   * Contract: never throws; unknown tools, bad JSON, schema violations and tool
   * failures become error results the model reads.
   */
  async execute(
    call: ToolCall,
    signal: AbortSignal,
    onOutput?: (text: string) => void,
  ): Promise<ToolResult> {
    const prepared = this.#prepare(call);
    if (typeof prepared === "string") return failure(prepared);
    try {
      return { ok: true, ...await prepared.run({ signal, ...(onOutput ? { onOutput } : {}) }) };
    } catch (error) {
      return failure(error instanceof Error ? error.message : String(error));
    }
  }

  /** Parses and checks the arguments once; returns a runnable call or the problem. */
  #prepare(call: ToolCall) {
    const tool = this.#tools.get(call.name);
    if (!tool) {
      const known = [...this.#tools.keys()].join(", ");
      return `Unknown tool "${call.name}": available tools are ${known}`;
    }
    const parsed = parseToolArguments(call.arguments);
    if (!parsed.ok) return `Cannot run ${call.name}: ${parsed.error}`;
    const checked = checkArguments(tool.params, parsed.args);
    if (!checked.ok) return `Cannot run ${call.name}: ${checked.problem}`;
    const args = checked.args;
    return {
      paths: tool.paths?.(args) ?? {},
      run: (context: ToolContext) => tool.execute(args, context),
    };
  }
}

function failure(message: string): ToolResult {
  return { ok: false, content: `Error: ${message}`, summary: message };
}
