/**
 * Loads and validates provider.json.
 *
 * @module
 */
import { validateCompactionSettings } from "./context/settings.ts";

/** A validated provider configuration. The key must never be printed or stored. */
export interface ProviderConfig {
  baseURL: string;
  apiKey: string;
  model: string;
  contextWindow: number;
  reserveTokens?: number;
  keepRecentTokens?: number;
  maxOutputTokens?: number;
  /** Send Anthropic-style prompt-cache breakpoints (`cache_control`); default false. */
  cacheControl?: boolean;
}

/** A configuration problem; main prints `message` and exits with code 2. */
export class ConfigError extends Error {
  /** Creates a config error with a one-line message. */
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

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
  "cacheControl",
];
const PLACEHOLDER_KEY = "no-key";

/**
 * Reads and validates a provider file.
 * Contract: throws only `ConfigError`, whose one-line message names the file and
 * every bad field, and never contains the API key.
 */
export async function loadProviderConfig(path: string, env: EnvReader): Promise<ProviderConfig> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    throw new ConfigError(`Cannot read provider file "${path}": ${readFailure(error)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`Cannot parse provider file "${path}": invalid JSON (${reason})`);
  }
  return parseProviderConfig(data, path, env);
}

/**
 * Validates parsed provider JSON.
 * Contract: as `loadProviderConfig`; reports all problems at once.
 */
export function parseProviderConfig(data: unknown, path: string, env: EnvReader): ProviderConfig {
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new ConfigError(`Invalid provider file "${path}": expected a JSON object`);
  }
  const fields = data as Record<string, unknown>;
  const problems: string[] = [];
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
  const cacheControl = fields.cacheControl;
  if (cacheControl !== undefined && typeof cacheControl !== "boolean") {
    problems.push(
      `field "cacheControl" must be true or false, got ${JSON.stringify(cacheControl)}`,
    );
  }
  const apiKey = resolveApiKey(fields.apiKey, env, problems);
  if (problems.length > 0 || !baseURL || !model || !contextWindow || apiKey === undefined) {
    throw new ConfigError(`Invalid provider file "${path}": ${problems.join("; ")}`);
  }
  return {
    baseURL,
    apiKey,
    model,
    contextWindow,
    ...(reserveTokens !== undefined ? { reserveTokens } : {}),
    ...(keepRecentTokens !== undefined ? { keepRecentTokens } : {}),
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
    ...(cacheControl === true ? { cacheControl } : {}),
  };
}

function requireString(
  fields: Record<string, unknown>,
  name: string,
  problems: string[],
): string | undefined {
  const value = fields[name];
  if (value === undefined) problems.push(`field "${name}" is required`);
  else if (typeof value !== "string" || value.trim() === "") {
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
  const value = fields[name];
  if (value === undefined) {
    if (required) problems.push(`field "${name}" is required`);
    return undefined;
  }
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    problems.push(`field "${name}" must be a positive integer, got ${JSON.stringify(value)}`);
    return undefined;
  }
  return value;
}

function resolveApiKey(value: unknown, env: EnvReader, problems: string[]): string | undefined {
  if (value === undefined) {
    return readEnv(env, "POWERCODE_API_KEY", problems) ??
      readEnv(env, "OPENAI_API_KEY", problems) ?? PLACEHOLDER_KEY;
  }
  if (typeof value !== "string" || value === "") {
    problems.push(`field "apiKey" must be a non-empty string or "env:NAME"`);
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
