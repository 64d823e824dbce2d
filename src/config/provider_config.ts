/**
 * Loads and validates provider.json.
 *
 * @module
 */
import {
  type CompatOverrides,
  isReasoningEffort,
  readCompatOverrides,
  REASONING_EFFORTS,
  type ReasoningEffort,
} from "../model/mod.ts";
import {
  type BudgetLimits,
  isObject,
  isPositiveInteger,
  isString,
  type Pricing,
} from "../core/mod.ts";
import { validateCompactionSettings } from "../context/mod.ts";
import { ConfigError } from "./config_error.ts";
import { readSpendingFields, SPENDING_FIELDS } from "./spending_config.ts";
import { numberField } from "./number_field.ts";

/** A validated provider configuration. The key must never be printed or stored. */
export interface ProviderConfig {
  baseURL: string;
  apiKey: string;
  model: string;
  contextWindow: number;
  reserveTokens?: number;
  keepRecentTokens?: number;
  maxOutputTokens?: number;
  /**
   * Provider-profile fields set by hand (`"compat"`, and the top-level `outputLimitField`
   * and `cacheControl`); the rest is detected from `baseURL` and `model`.
   */
  compat?: CompatOverrides;
  /** Set when the key is written in the file itself (not `env:NAME`, not `null`). */
  literalKey?: true;
  /**
   * Ask for summaries at the end of the cached conversation (the default); `false` asks with
   * the tool-less serialized request (see docs/sessions-and-compaction.md).
   */
  summaryInConversation?: boolean;
  /** Prices in dollars per million tokens, for costs and `budget.cost`. */
  pricing?: Pricing;
  /** What one session may spend (the command line's limits replace these). */
  budget?: BudgetLimits;
  /** How hard a reasoning model thinks; sent with every request when set. */
  reasoningEffort?: ReasoningEffort;
  /** The model takes images (`image_url` parts); without it, no image is sent. */
  vision?: boolean;
}

export { ConfigError };

/** Reads an environment variable; undefined when unset. Throws when not permitted. */
export type EnvReader = (name: string) => string | undefined;

const KNOWN_FIELDS = [
  "baseURL",
  "apiKey",
  "model",
  "contextWindow",
  "reserveTokens",
  "keepRecentTokens",
  "maxOutputTokens",
  "outputLimitField",
  "cacheControl",
  "compat",
  "summaryInConversation",
  ...SPENDING_FIELDS,
  "reasoningEffort",
  "vision",
];
/** The key sent when none is configured (`"apiKey": null`, or no key variable set); not a secret. */
export const PLACEHOLDER_KEY = "no-key";

/**
 * Reads and validates a provider file.
 * Contract: throws only `ConfigError`, whose one-line message names the file and
 * every bad field, and never contains the API key. With `workspaceDir`, a file whose real
 * path lies inside that directory (where the agent's tools could read the key) is refused.
 */
export async function loadProviderConfig(
  path: string,
  env: EnvReader,
  options: { workspaceDir?: string } = {},
): Promise<ProviderConfig> {
  return parseProviderConfig(await readProviderJson(path, options), path, env);
}

/**
 * Reads a provider file's JSON, unchecked.
 * Contract: as `loadProviderConfig` for a missing or unreadable file, one inside the
 * workspace, and invalid JSON.
 */
export async function readProviderJson(
  path: string,
  options: { workspaceDir?: string } = {},
): Promise<unknown> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    throw new ConfigError(`Cannot read provider file "${path}": ${readFailure(error)}`);
  }
  if (options.workspaceDir !== undefined) {
    await refuseInsideWorkspace(path, options.workspaceDir, {
      what: `provider file "${path}"`,
      fix: "keep it in ./provider.json or ./.powercode/",
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`Cannot parse provider file "${path}": invalid JSON (${reason})`);
  }
}

/**
 * Validates parsed provider JSON.
 * Contract: as `loadProviderConfig`; reports all problems at once.
 */
export function parseProviderConfig(data: unknown, path: string, env: EnvReader): ProviderConfig {
  if (!isObject(data)) {
    throw new ConfigError(`Invalid provider file "${path}": expected a JSON object`);
  }
  const problems: string[] = [];
  const config = readProviderFields(data, env, problems);
  if (problems.length > 0 || config === undefined) {
    throw new ConfigError(`Invalid provider file "${path}": ${problems.join("; ")}`);
  }
  return config;
}

/**
 * Reads one endpoint's fields (the whole file of the single shape, or one profile).
 * Contract: reads nothing but key variables through `env`; adds one line per problem to
 * `problems` and returns undefined when there is any.
 */
export function readProviderFields(
  fields: Record<string, unknown>,
  env: EnvReader,
  problems: string[],
): ProviderConfig | undefined {
  const before = problems.length;
  for (const name of Object.keys(fields)) {
    if (!KNOWN_FIELDS.includes(name)) problems.push(`field "${name}" is unknown`);
  }
  const baseURL = requireString(fields, "baseURL", problems);
  if (baseURL !== undefined && !/^https?:\/\/[^\s/]/.test(baseURL)) {
    problems.push(`field "baseURL" must be an http(s) URL, got ${JSON.stringify(baseURL)}`);
  }
  const model = requireString(fields, "model", problems);
  const contextWindow = integerField(fields, "contextWindow", problems, true);
  const reserveTokens = integerField(fields, "reserveTokens", problems, false);
  const keepRecentTokens = integerField(fields, "keepRecentTokens", problems, false);
  const maxOutputTokens = integerField(fields, "maxOutputTokens", problems, false);
  if (contextWindow !== undefined) {
    problems.push(...validateCompactionSettings({
      contextWindow,
      ...(reserveTokens !== undefined ? { reserveTokens } : {}),
      ...(keepRecentTokens !== undefined ? { keepRecentTokens } : {}),
      ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
    }));
  }
  const compat = readCompatOverrides(fields, problems);
  const summaryInConversation = booleanField(fields, "summaryInConversation", problems);
  const vision = booleanField(fields, "vision", problems);
  const spending = readSpendingFields(fields, problems);
  const reasoningEffort = effortField(fields.reasoningEffort, problems);
  const apiKey = resolveApiKey(fields.apiKey, env, problems);
  if (problems.length > before || !baseURL || !model || !contextWindow || apiKey === undefined) {
    return undefined;
  }
  return {
    baseURL,
    apiKey,
    model,
    contextWindow,
    ...(reserveTokens !== undefined ? { reserveTokens } : {}),
    ...(keepRecentTokens !== undefined ? { keepRecentTokens } : {}),
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
    ...(Object.keys(compat).length > 0 ? { compat } : {}),
    ...(typeof fields.apiKey === "string" && !fields.apiKey.startsWith("env:")
      ? { literalKey: true as const }
      : {}),
    ...(summaryInConversation !== undefined ? { summaryInConversation } : {}),
    ...spending,
    ...(reasoningEffort !== undefined ? { reasoningEffort } : {}),
    ...(vision === true ? { vision } : {}),
  };
}

function effortField(value: unknown, problems: string[]): ReasoningEffort | undefined {
  if (value === undefined || isReasoningEffort(value)) return value;
  const levels = REASONING_EFFORTS.map((level) => JSON.stringify(level)).join(", ");
  problems.push(`field "reasoningEffort" must be one of ${levels}, got ${JSON.stringify(value)}`);
  return undefined;
}

function booleanField(
  fields: Record<string, unknown>,
  name: string,
  problems: string[],
): boolean | undefined {
  const value = fields[name];
  if (value === undefined || typeof value === "boolean") return value;
  problems.push(`field "${name}" must be true or false, got ${JSON.stringify(value)}`);
  return undefined;
}

/**
 * Refuses `path` when its real path lies inside the real path of `workspaceDir`, where
 * the agent's tools can read (and bash change) it.
 * Contract: throws `ConfigError` "Cannot use <what>: it lies inside the workspace …; <fix>";
 * a path or workspace that does not exist passes.
 */
export async function refuseInsideWorkspace(
  path: string,
  workspaceDir: string,
  message: { what: string; fix: string },
): Promise<void> {
  const real = await Deno.realPath(path).catch(() => undefined);
  const root = await Deno.realPath(workspaceDir).catch(() => undefined);
  if (real === undefined || root === undefined) return;
  if (root !== "/" && real !== root && !real.startsWith(`${root}/`)) return;
  throw new ConfigError(
    `Cannot use ${message.what}: it lies inside the workspace "${workspaceDir}" (real path ` +
      `"${real}"), where the agent's tools can read it; ${message.fix}`,
  );
}

function requireString(
  fields: Record<string, unknown>,
  name: string,
  problems: string[],
): string | undefined {
  const value = fields[name];
  if (value === undefined) problems.push(`field "${name}" is required`);
  else if (!isString(value) || value.trim() === "") {
    problems.push(`field "${name}" must be a non-empty string, got ${JSON.stringify(value)}`);
  } else return value;
  return undefined;
}

function integerField(
  fields: Record<string, unknown>,
  name: string,
  problems: string[],
  required: boolean,
): number | undefined {
  const rule = { label: name, required, accept: isPositiveInteger, expected: "a positive integer" };
  return numberField(fields, name, problems, rule);
}

function resolveApiKey(value: unknown, env: EnvReader, problems: string[]): string | undefined {
  // `null`: the server needs no key; no variable is read, so none can leak to it.
  if (value === null) return PLACEHOLDER_KEY;
  if (value === undefined) {
    return readEnv(env, "POWERCODE_API_KEY", problems) ??
      readEnv(env, "OPENAI_API_KEY", problems) ?? PLACEHOLDER_KEY;
  }
  if (typeof value !== "string" || value === "") {
    problems.push(`field "apiKey" must be a non-empty string, "env:NAME" or null`);
    return undefined;
  }
  if (!value.startsWith("env:")) return value;
  const name = value.slice("env:".length);
  const key = readEnv(env, name, problems);
  if (key === undefined && !problems.some((problem) => problem.includes(`"${name}"`))) {
    problems.push(`field "apiKey": environment variable "${name}" is not set`);
  }
  return key;
}

function readEnv(env: EnvReader, name: string, problems: string[]): string | undefined {
  try {
    return env(name) || undefined;
  } catch {
    problems.push(
      `field "apiKey": powercode may read only OPENAI_* and POWERCODE_* variables, not "${name}"`,
    );
    return undefined;
  }
}

function readFailure(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) {
    return "file not found; create it (see README.md) or pass --provider FILE";
  }
  if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
    return "not readable under powercode's permissions; use ./provider.json or a file in ./.powercode/";
  }
  return error instanceof Error ? error.message : String(error);
}
