/**
 * Reads one `settings.json`: its fields checked, paths made absolute, every problem named
 * with the file, the field and the value, none thrown.
 *
 * @module
 */
import { isObject, parseHostPattern } from "../core/mod.ts";
import type {
  HookCommand,
  NotificationStyle,
  PermissionRules,
  ShellSettings,
  Sourced,
} from "./settings.ts";
import { parseHooks, parseNotifications } from "./hooks_field.ts";

/** What paths in a file are relative to. */
export interface PathContext {
  /** The user's home directory, for `~/…`; undefined where powercode may not read it. */
  home: string | undefined;
  /** The first root (real path): a relative `shell.path` entry lies in it. */
  firstRoot: string;
}

/** The values one file sets, each sourced to it. */
export interface FileSettings {
  shell: ShellSettings;
  network: { allow: Sourced<string>[] };
  permissions: PermissionRules;
  hooks: Sourced<HookCommand>[];
  /** Undefined when the file sets none. */
  notifications?: NotificationStyle;
}

/** The values of a file, and its problems (each a whole sentence naming file and field). */
export interface ParsedSettings {
  settings: FileSettings;
  problems: string[];
}

const TOP_FIELDS = ["$schema", "shell", "network", "permissions", "hooks", "notifications"];
const SHELL_FIELDS = ["path", "env", "readOnly", "writable"] as const;
const RULE_FIELDS = ["allow", "ask", "deny"] as const;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Variables powercode sets itself, or that hold provider keys. */
const RESERVED_ENV =
  /^(OPENAI_|POWERCODE_)|^(PATH|HOME|(HTTPS?|ALL|NO)_PROXY|(https?|all|no)_proxy)$/;

/** An empty value of every field. */
export function emptyFileSettings(): FileSettings {
  return {
    shell: { path: [], env: [], readOnly: [], writable: [] },
    network: { allow: [] },
    permissions: { allow: [], ask: [], deny: [] },
    hooks: [],
  };
}

/**
 * Parses the text of settings file `file`.
 * Contract: pure; never throws; a value with a problem is left out of the result.
 */
export function parseSettings(text: string, file: string, context: PathContext): ParsedSettings {
  const settings = emptyFileSettings();
  const problems: string[] = [];
  const problem = (field: string, value: unknown, why: string) =>
    problems.push(
      `"${file}": field "${field}"${value === undefined ? "" : ` ${show(value)}`} ${why}`,
    );
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    problems.push(`"${file}": not JSON: ${reason}`);
    return { settings, problems };
  }
  if (!isObject(data)) {
    problems.push(`"${file}": expected a JSON object`);
    return { settings, problems };
  }
  for (const key of Object.keys(data)) {
    if (!TOP_FIELDS.includes(key)) {
      problem(key, undefined, `is unknown (known: ${TOP_FIELDS.slice(1).join(", ")})`);
    }
  }
  const sourced = (value: string) => ({ value, source: file });
  const shell = section(data, "shell", SHELL_FIELDS, problem);
  for (const field of SHELL_FIELDS) {
    strings(shell, `shell.${field}`, problem).forEach(([value, name]) => {
      const checked = field === "env" ? checkEnvName(value) : checkPath(value, field, context);
      if (checked.ok) settings.shell[field].push(sourced(checked.value));
      else problem(name, value, checked.why);
    });
  }
  const network = section(data, "network", ["allow"], problem);
  strings(network, "network.allow", problem).forEach(([value, name]) => {
    const pattern = parseHostPattern(value);
    if (typeof pattern === "string") problem(name, value, pattern);
    else settings.network.allow.push(sourced(value));
  });
  const permissions = section(data, "permissions", RULE_FIELDS, problem);
  for (const field of RULE_FIELDS) {
    strings(permissions, `permissions.${field}`, problem).forEach(([value]) =>
      settings.permissions[field].push(sourced(value))
    );
  }
  settings.hooks = parseHooks(data.hooks, file, problem);
  const notifications = parseNotifications(data.notifications, problem);
  if (notifications !== undefined) settings.notifications = notifications;
  return { settings, problems };
}

type Problem = (field: string, value: unknown, why: string) => void;

/** The object at `data[name]` (empty when absent), its unknown keys reported. */
function section(
  data: Record<string, unknown>,
  name: string,
  fields: readonly string[],
  problem: Problem,
): Record<string, unknown> {
  const value = data[name];
  if (value === undefined) return {};
  if (!isObject(value)) {
    problem(name, value, "must be an object");
    return {};
  }
  for (const key of Object.keys(value)) {
    if (!fields.includes(key)) {
      problem(`${name}.${key}`, undefined, `is unknown (known: ${fields.join(", ")})`);
    }
  }
  return value;
}

/** The non-empty strings of the array at `data[field]`, each with its field name. */
function strings(
  data: Record<string, unknown>,
  path: string,
  problem: Problem,
): [string, string][] {
  const value = data[path.slice(path.indexOf(".") + 1)];
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problem(path, value, "must be an array of strings");
    return [];
  }
  const found: [string, string][] = [];
  value.forEach((item, index) => {
    if (typeof item !== "string" || item.trim() === "" || item.includes("\0")) {
      problem(`${path}[${index}]`, item, "must be a non-empty string");
    } else found.push([item, `${path}[${index}]`]);
  });
  return found;
}

type Checked = { ok: true; value: string } | { ok: false; why: string };

/** The name itself when it may be passed to commands, else why not. */
function checkEnvName(name: string): Checked {
  if (!ENV_NAME.test(name)) return { ok: false, why: "is not a variable name" };
  if (RESERVED_ENV.test(name)) {
    return {
      ok: false,
      why: "is powercode's own (OPENAI_* and POWERCODE_* may hold a provider key; PATH " +
        "comes from shell.path, the proxy variables from network.allow)",
    };
  }
  return { ok: true, value: name };
}

/** The absolute, normalized path of an entry, or why it cannot be used. */
function checkPath(
  value: string,
  field: (typeof SHELL_FIELDS)[number],
  context: PathContext,
): Checked {
  const refuse = (why: string): Checked => ({ ok: false, why });
  let path: string;
  if (value === "~" || value.startsWith("~/")) {
    if (context.home === undefined) {
      return refuse(
        "starts with ~, which only the installed command (project mode) can expand; " +
          "write the absolute path",
      );
    }
    path = normalize(`${context.home}/${value.slice(1)}`);
  } else if (value.startsWith("/")) {
    path = normalize(value);
  } else if (field === "path") {
    path = normalize(`${context.firstRoot}/${value}`);
    if (!path.startsWith(`${context.firstRoot}/`) && path !== context.firstRoot) {
      return refuse(`leaves the first root "${context.firstRoot}"`);
    }
  } else {
    return refuse("must be an absolute path or start with ~/");
  }
  if (field === "path" && path.includes(":")) return refuse('holds ":", which PATH cannot carry');
  if (path === "/") return refuse('is "/": name the directories to bind');
  return { ok: true, value: path };
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Lexically normalizes an absolute POSIX path: no `.`, `..`, empty segments. */
function normalize(absolute: string): string {
  const parts: string[] = [];
  for (const segment of absolute.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") parts.pop();
    else parts.push(segment);
  }
  return `/${parts.join("/")}`;
}
