/**
 * The tool interface and the dispatcher the agent calls tools through.
 *
 * @module
 */
import type { ToolCall, ToolDefinition } from "../messages.ts";

/** What a tool receives besides its arguments. */
export interface ToolContext {
  /** Aborted on Ctrl+C: the tool stops and kills what it started. */
  signal: AbortSignal;
}

/** What a tool returns: the text the model reads and a short summary for the terminal. */
export interface ToolOutput {
  content: string;
  /** e.g. `1.2 KB`, `exit 0`; shown after the ✓ of the tool line. */
  summary: string;
}

/**
 * One tool. `parameters` is the JSON schema the model sees; `execute` receives
 * arguments already checked against its required fields and property types.
 * Contract: a tool reports failure by throwing an Error whose message the model can act on.
 */
export interface Tool {
  name: string;
  description: string;
  parameters: {
    type: "object";
    properties: Record<string, { type: string; description: string }>;
    required: string[];
  };
  execute(args: Record<string, unknown>, context: ToolContext): Promise<ToolOutput>;
}

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
    return [...this.#tools.values()].map(({ name, description, parameters }) => ({
      name,
      description,
      parameters,
    }));
  }

  /**
   * Runs one tool call.
   * Contract: never throws; unknown tools, bad JSON, schema violations and tool
   * failures become error results the model reads.
   */
  async execute(call: ToolCall, signal: AbortSignal): Promise<ToolResult> {
    const tool = this.#tools.get(call.name);
    if (!tool) {
      const known = [...this.#tools.keys()].join(", ");
      return failure(`Unknown tool "${call.name}": available tools are ${known}`);
    }
    const parsed = parseArguments(call.arguments);
    if (typeof parsed === "string") return failure(`Cannot run ${call.name}: ${parsed}`);
    const problem = checkArguments(tool, parsed);
    if (problem) return failure(`Cannot run ${call.name}: ${problem}`);
    try {
      const output = await tool.execute(parsed, { signal });
      return { ok: true, ...output };
    } catch (error) {
      return failure(error instanceof Error ? error.message : String(error));
    }
  }
}

function failure(message: string): ToolResult {
  return { ok: false, content: `Error: ${message}`, summary: message };
}

function parseArguments(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text.trim() === "" ? "{}" : text);
  } catch {
    return `arguments are not valid JSON: ${JSON.stringify(text.slice(0, 200))}`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return "arguments must be a JSON object";
  }
  return value as Record<string, unknown>;
}

function checkArguments(tool: Tool, args: Record<string, unknown>): string | undefined {
  for (const name of tool.parameters.required) {
    if (args[name] === undefined) return `missing required argument "${name}"`;
  }
  for (const [name, value] of Object.entries(args)) {
    const schema = tool.parameters.properties[name];
    if (!schema) return `unknown argument "${name}"`;
    if (!matchesType(value, schema.type)) {
      return `argument "${name}" must be ${schema.type}, got ${JSON.stringify(value)}`;
    }
  }
  return undefined;
}

function matchesType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    default:
      return true;
  }
}
