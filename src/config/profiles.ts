/**
 * Profiles: a provider file may name several endpoints and models,
 * `{"default": "NAME", "profiles": {"NAME": {baseURL, model, contextWindow, …}}}`, each
 * profile taking every field of the single shape. A file of the single shape is one
 * profile named "default".
 *
 * @module
 */
import { type BudgetLimits, isObject } from "../core/mod.ts";
import { readBudget } from "./spending_config.ts";
import {
  ConfigError,
  type EnvReader,
  type ProviderConfig,
  readProviderFields,
  readProviderJson,
} from "./provider_config.ts";

/** The profiles of a provider file. */
export interface ProviderProfiles {
  /** The profile a session runs on when none was chosen. */
  defaultProfile: string;
  /** Every profile by name, in the file's order. */
  profiles: ReadonlyMap<string, ProviderConfig>;
  /** True for the `profiles` shape; false for a single endpoint (one profile, "default"). */
  named: boolean;
  /** What one session may spend, whichever profiles serve it (`budget`). */
  budget?: BudgetLimits;
}

/** The name of the one profile of a file of the single shape. */
export const SINGLE_PROFILE = "default";

const NAME = /^[A-Za-z0-9][\w.:/-]{0,63}$/;
const TOP_LEVEL = ["default", "profiles", "budget"];

/**
 * Reads and validates a provider file of either shape.
 * Contract: as `loadProviderConfig`: throws only `ConfigError`, one line naming the file
 * and every bad field, each field of a profile named with its profile.
 */
export async function loadProviderProfiles(
  path: string,
  env: EnvReader,
  options: { workspaceDir?: string } = {},
): Promise<ProviderProfiles> {
  return parseProviderProfiles(await readProviderJson(path, options), path, env);
}

/**
 * Validates parsed provider JSON of either shape.
 * Contract: as `loadProviderProfiles`; reports all problems at once.
 */
export function parseProviderProfiles(
  data: unknown,
  path: string,
  env: EnvReader,
): ProviderProfiles {
  if (!isObject(data)) {
    throw new ConfigError(`Invalid provider file "${path}": expected a JSON object`);
  }
  const problems: string[] = [];
  if (data.profiles === undefined) {
    const config = readProviderFields(data, env, problems);
    if (config) return singleProfile(config);
    throw invalid(path, problems);
  }
  const profiles = readProfiles(data, env, problems);
  const declared = isObject(data.profiles) ? Object.keys(data.profiles) : [];
  const defaultProfile = readDefault(data.default, declared, problems);
  const budget = readBudget(data.budget, problems);
  if (problems.length > 0 || defaultProfile === undefined) throw invalid(path, problems);
  return { defaultProfile, profiles, named: true, ...(budget ? { budget } : {}) };
}

/** A single endpoint as a file of one profile, named {@linkcode SINGLE_PROFILE}. */
export function singleProfile(config: ProviderConfig): ProviderProfiles {
  return {
    defaultProfile: SINGLE_PROFILE,
    profiles: new Map([[SINGLE_PROFILE, config]]),
    named: false,
    ...(config.budget ? { budget: config.budget } : {}),
  };
}

/**
 * The configuration of the file's default profile.
 * Contract: throws `TypeError` only for a value `parseProviderProfiles` never returns.
 */
export function defaultConfig(file: ProviderProfiles): ProviderConfig {
  const config = file.profiles.get(file.defaultProfile);
  if (!config) throw new TypeError(`No default profile "${file.defaultProfile}" in the file`);
  return config;
}

function readProfiles(
  data: Record<string, unknown>,
  env: EnvReader,
  problems: string[],
): Map<string, ProviderConfig> {
  for (const name of Object.keys(data)) {
    if (!TOP_LEVEL.includes(name)) {
      problems.push(`field "${name}" is unknown beside "profiles"; move it into a profile`);
    }
  }
  const profiles = new Map<string, ProviderConfig>();
  if (!isObject(data.profiles) || Object.keys(data.profiles).length === 0) {
    problems.push(
      `field "profiles" must be an object of at least one profile, got ${
        JSON.stringify(data.profiles)
      }`,
    );
    return profiles;
  }
  for (const [name, fields] of Object.entries(data.profiles)) {
    const own: string[] = [];
    if (!NAME.test(name)) {
      own.push("its name must be letters, digits and . _ : / - (at most 64)");
    }
    if (!isObject(fields)) own.push(`must be an object, got ${JSON.stringify(fields)}`);
    const config = isObject(fields) ? readProviderFields(fields, env, own) : undefined;
    if (config?.budget) own.push('field "budget" is the session\'s: move it beside "profiles"');
    if (config && own.length === 0) profiles.set(name, config);
    problems.push(...own.map((problem) => `profile ${JSON.stringify(name)}: ${problem}`));
  }
  return profiles;
}

function readDefault(value: unknown, names: string[], problems: string[]): string | undefined {
  const listed = names.map((name) => JSON.stringify(name)).join(", ");
  if (value === undefined) {
    if (names.length <= 1) return names[0];
    problems.push(`field "default" is required with more than one profile: name one of ${listed}`);
  } else if (typeof value !== "string" || !names.includes(value)) {
    problems.push(`field "default" must name a profile (${listed}), got ${JSON.stringify(value)}`);
  } else return value;
  return undefined;
}

function invalid(path: string, problems: string[]): ConfigError {
  return new ConfigError(`Invalid provider file "${path}": ${problems.join("; ")}`);
}
