/**
 * Typed tool parameters: a small table of names, JSON types and descriptions that gives a
 * tool both the JSON schema the model reads and the parser that checks the model's arguments.
 *
 * @module
 */
import type { ToolParameters } from "./tool.ts";

interface ParamBase {
  /** What the model reads about the parameter. */
  description: string;
  /** The model may leave it out. */
  optional?: true;
}

/** A string, a safe integer, any finite number, or a boolean. */
export interface ScalarParam extends ParamBase {
  type: "string" | "integer" | "number" | "boolean";
}

/** One of a few strings (a JSON schema `enum`). */
export interface EnumParam extends ParamBase {
  type: "enum";
  values: readonly [string, ...string[]];
}

/** An array of strings. */
export interface StringArrayParam extends ParamBase {
  type: "string[]";
}

/** One parameter: its type, what the model reads about it, and whether it may be left out. */
export type ParamSpec = ScalarParam | EnumParam | StringArrayParam;

/** A tool's parameters by name. */
export type Params = Record<string, ParamSpec>;

type ValueOf<S extends ParamSpec> = S extends { type: "enum"; values: readonly (infer V)[] } ? V
  : S["type"] extends "string" ? string
  : S["type"] extends "integer" | "number" ? number
  : S["type"] extends "boolean" ? boolean
  : string[];
type RequiredKeys<P extends Params> = {
  [K in keyof P]: P[K]["optional"] extends true ? never : K;
}[keyof P];
type OptionalKeys<P extends Params> = Exclude<keyof P, RequiredKeys<P>>;

/** The typed arguments a tool with parameters `P` receives. */
export type ArgsOf<P extends Params> =
  & { [K in RequiredKeys<P>]: ValueOf<P[K]> }
  & { [K in OptionalKeys<P>]?: ValueOf<P[K]> };

/**
 * The schema and parser of parameters `params`: an object schema listing each parameter
 * and the required ones, and {@linkcode checkArguments} as the parser.
 */
export function defineParams<P extends Params>(params: P): ToolParameters<ArgsOf<P>> {
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  for (const [name, spec] of Object.entries(params)) {
    properties[name] = propertySchema(spec);
    if (!spec.optional) required.push(name);
  }
  return {
    schema: { type: "object", properties, required },
    parse: (args) => checkArguments(params, args),
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
    if (!matches(value, spec)) {
      return {
        ok: false,
        problem: `argument "${name}" must be ${expected(spec)}, got ${JSON.stringify(value)}`,
      };
    }
  }
  return { ok: true, args: args as ArgsOf<P> };
}

function propertySchema(spec: ParamSpec): Record<string, unknown> {
  const { description } = spec;
  switch (spec.type) {
    case "enum":
      return { type: "string", enum: [...spec.values], description };
    case "string[]":
      return { type: "array", items: { type: "string" }, description };
    default:
      return { type: spec.type, description };
  }
}

function matches(value: unknown, spec: ParamSpec): boolean {
  switch (spec.type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isSafeInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "enum":
      return typeof value === "string" && spec.values.includes(value);
    case "string[]":
      return Array.isArray(value) && value.every((item) => typeof item === "string");
    default: {
      const never: never = spec;
      return never;
    }
  }
}

function expected(spec: ParamSpec): string {
  switch (spec.type) {
    case "enum":
      return `one of ${spec.values.map((value) => JSON.stringify(value)).join(", ")}`;
    case "string[]":
      return "an array of strings";
    default:
      return spec.type;
  }
}

/** The `path` parameter shared by the file tools. */
export const PATH_PARAMETER = {
  type: "string",
  description: "File path relative to the workspace root (an absolute path must be inside " +
    "the workspace)",
} as const satisfies ParamSpec;
