/**
 * The permission rules of a settings file, read as simply as this layer needs, and the writes
 * powercode makes to a settings file: a rule or a host the user answered "always" to.
 * The settings loader replaces the reading (`readPermissionRules`) once it lands.
 *
 * @module
 */
import type { PermissionRules } from "../settings/mod.ts";

/**
 * The `permissions` of settings file `file`; empty lists when the file is missing.
 * Contract: throws a SyntaxError naming the file and the field for malformed content.
 */
export async function readPermissionRules(file: string): Promise<PermissionRules> {
  const rules: PermissionRules = { allow: [], ask: [], deny: [] };
  const text = await readIfThere(file);
  if (text === undefined) return rules;
  const parsed = parseObject(text, file);
  const permissions = parsed.permissions;
  if (permissions === undefined) return rules;
  if (!isRecord(permissions)) {
    throw new SyntaxError(`Invalid settings file "${file}": "permissions" must be an object`);
  }
  for (const list of ["allow", "ask", "deny"] as const) {
    const values = permissions[list] ?? [];
    if (!Array.isArray(values) || !values.every((value) => typeof value === "string")) {
      throw new SyntaxError(
        `Invalid settings file "${file}": "permissions.${list}" must be a list of rules, got ` +
          JSON.stringify(values),
      );
    }
    rules[list] = values.map((value: string) => ({ value, source: file }));
  }
  return rules;
}

/**
 * Adds `rule` to `permissions.allow` of settings file `file` (created when missing),
 * keeping everything else; written beside and renamed over, so a reader never sees half.
 * Contract: a rule already there is not added twice; throws when the file is not a JSON
 * object or cannot be written.
 */
export function saveAllowRule(file: string, rule: string): Promise<void> {
  return addToAllowList(file, "permissions", rule);
}

/**
 * Adds `host` to `network.allow` of settings file `file` (created when missing), the list
 * of hosts commands and fetch may reach, as `saveAllowRule` adds a rule.
 * Contract: as `saveAllowRule`.
 */
export function saveAllowedHost(file: string, host: string): Promise<void> {
  return addToAllowList(file, "network", host);
}

async function addToAllowList(
  file: string,
  section: "permissions" | "network",
  value: string,
): Promise<void> {
  const text = await readIfThere(file);
  const settings = text === undefined ? {} : parseObject(text, file);
  const fields = isRecord(settings[section]) ? settings[section] : {};
  const allow = Array.isArray(fields.allow) ? fields.allow : [];
  if (allow.includes(value)) return;
  settings[section] = { ...fields, allow: [...allow, value] };
  const dir = file.slice(0, Math.max(0, file.lastIndexOf("/")));
  if (dir !== "") await Deno.mkdir(dir, { recursive: true });
  const temp = `${file}.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(temp, `${JSON.stringify(settings, null, 2)}\n`);
  await Deno.rename(temp, file);
}

async function readIfThere(file: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

function parseObject(text: string, file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new SyntaxError(`Invalid settings file "${file}": ${detail}`);
  }
  if (!isRecord(parsed)) {
    throw new SyntaxError(`Invalid settings file "${file}": not a JSON object`);
  }
  return parsed;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
