/**
 * What a tool is: its name, description, typed parameters, the paths a call touches, and
 * how it runs. Arguments are checked against the parameters once, by the registry, and
 * reach `execute` as typed values.
 *
 * @module
 */
import type { ToolDefinition } from "../core/mod.ts";

/** The JSON types a tool parameter may have. */
export type ParamType = "string" | "integer" | "boolean";

/** One parameter: its JSON type, what the model reads about it, and whether it may be left out. */
export interface ParamSpec {
  type: ParamType;
  description: string;
  optional?: true;
}

/** A tool's parameters by name. */
export type Params = Record<string, ParamSpec>;

type ValueOf<T extends ParamType> = T extends "string" ? string
  : T extends "integer" ? number
  : boolean;
type RequiredKeys<P extends Params> = {
  [K in keyof P]: P[K]["optional"] extends true ? never : K;
}[keyof P];
type OptionalKeys<P extends Params> = Exclude<keyof P, RequiredKeys<P>>;

/** The typed arguments a tool with parameters `P` receives. */
export type ArgsOf<P extends Params> =
  & { [K in RequiredKeys<P>]: ValueOf<P[K]["type"]> }
  & { [K in OptionalKeys<P>]?: ValueOf<P[K]["type"]> };

/** Workspace paths a call reads or modifies, as the model named them. */
export interface ToolPaths {
  read?: string[];
  modified?: string[];
}

/** What a tool receives besides its arguments. */
export interface ToolContext {
  /** Aborted on Ctrl+C: the tool stops and kills what it started. */
  signal: AbortSignal;
  /** Live output for the terminal (bash's stdout and stderr); never what the model reads. */
  onOutput?: (text: string) => void;
}

/** What a tool returns: the text the model reads and a short summary for the terminal. */
export interface ToolOutput {
  content: string;
  /** e.g. `1.2 KB`, `exit 0`; shown after the ✓ of the tool line. */
  summary: string;
}

/**
 * One tool. The name the model sees is its file name.
 * Contract: `execute` receives arguments that passed {@linkcode checkArguments}; it reports
 * failure by throwing an Error whose message the model can act on.
 */
export interface Tool<P extends Params = Params> {
  name: string;
  description: string;
  params: P;
  /** The paths a call reads or modifies, for the session's file lists. */
  paths?(args: ArgsOf<P>): ToolPaths;
  execute(args: ArgsOf<P>, context: ToolContext): Promise<ToolOutput>;
}

/** The definition sent to the model: the parameters as a JSON schema. */
export function toolDefinition(tool: Tool): ToolDefinition {
  const properties: Record<string, { type: ParamType; description: string }> = {};
  const required: string[] = [];
  for (const [name, { type, description, optional }] of Object.entries(tool.params)) {
    properties[name] = { type, description };
    if (!optional) required.push(name);
  }
  return {
    name: tool.name,
    description: tool.description,
    parameters: { type: "object", properties, required },
  };
}

/**
 * Checks parsed arguments against a tool's parameters.
 * Contract: pure; returns the typed arguments, or a one-line problem naming the argument.
 * Only own properties count, so `__proto__` or `constructor` are unknown arguments.
 */
export function checkArguments<P extends Params>(
  params: P,
  args: Record<string, unknown>,
): { ok: true; args: ArgsOf<P> } | { ok: false; problem: string } {
  for (const [name, spec] of Object.entries(params)) {
    if (!spec.optional && !Object.hasOwn(args, name)) {
      return { ok: false, problem: `missing required argument "${name}"` };
    }
  }
  for (const [name, value] of Object.entries(args)) {
    const spec = Object.hasOwn(params, name) ? params[name] : undefined;
    if (!spec) return { ok: false, problem: `unknown argument ${JSON.stringify(name)}` };
    if (!matchesType(value, spec.type)) {
      return {
        ok: false,
        problem: `argument "${name}" must be ${spec.type}, got ${JSON.stringify(value)}`,
      };
    }
  }
  return { ok: true, args: args as ArgsOf<P> };
}

function matchesType(value: unknown, type: ParamType): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isSafeInteger(value);
    case "boolean":
      return typeof value === "boolean";
    default: {
      const never: never = type;
      return never;
    }
  }
}
