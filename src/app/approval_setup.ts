/**
 * The permissions a run starts with: `--approval`, the rules of the user's settings file
 * (beside `mcp.json`), and where an "always" answer is saved.
 *
 * @module
 */
import { ConfigError } from "../config/mod.ts";
import { parseRule, readPermissionRules } from "../permissions/mod.ts";
import type { PermissionRules } from "../settings/mod.ts";
import type { ApprovalSetup } from "./assemble.ts";
import type { RunStart } from "./run_start.ts";

/** The settings file's name, in the user's config directory and a project's `.powercode/`. */
export const SETTINGS_FILE = "settings.json";

/**
 * The approval setup of the run: the mode from `--approval` (default auto), the rules from
 * `rules` when the settings loader gave them, else read from the user's settings file.
 * Contract: throws `ConfigError` naming the file for a malformed settings file.
 */
export async function approvalSetup(
  start: RunStart,
  rules?: PermissionRules,
): Promise<ApprovalSetup> {
  const { locations, cli } = start;
  const user = `${locations.configDir}/${SETTINGS_FILE}`;
  const project = locations.mode === "project"
    ? { project: `${start.workspaceDir}/.powercode/${SETTINGS_FILE}` }
    : {};
  return {
    mode: cli.approval ?? "auto",
    rules: rules ?? await readRules(user),
    files: { user, ...project },
  };
}

async function readRules(file: string): Promise<PermissionRules> {
  try {
    const rules = await readPermissionRules(file);
    for (const list of ["allow", "ask", "deny"] as const) {
      for (const { value, source } of rules[list]) parseRule(value, list, source);
    }
    return rules;
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) return { allow: [], ask: [], deny: [] };
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
}
