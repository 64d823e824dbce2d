/**
 * The MCP server configuration: `{"mcpServers": {"NAME": {...}}}` as the ecosystem writes
 * it (stdio: `command`, `args`, `env`; streamable HTTP: `url`, `headers`), with powercode's
 * own keys `network`, `timeoutMs` and `enabled`, and `"env:NAME"` values.
 *
 * @module
 */
import { isObject, isPositiveInteger, isString } from "../core/mod.ts";

/** What every server has. */
interface ServerBase {
  /** The key in `mcpServers`; letters, digits, `_` and `-`. */
  name: string;
  /** The file it came from, as named to the user. */
  file: string;
  /** `timeoutMs`: the bound on starting and on each call, when set. */
  timeoutMs?: number;
  enabled: boolean;
}

/** A server powercode starts and talks to through its stdin and stdout. */
export interface StdioServerConfig extends ServerBase {
  kind: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  /** `"network": true`: the sandbox keeps the host's network. */
  network: boolean;
}

/** A server reached over streamable HTTP. */
export interface HttpServerConfig extends ServerBase {
  kind: "http";
  url: string;
  headers: Record<string, string>;
}

/** One configured server. */
export type ServerConfig = StdioServerConfig | HttpServerConfig;

/** Reads an environment variable; undefined when unset. Throws when not permitted. */
export type EnvReader = (name: string) => string | undefined;

/** The longest `timeoutMs` accepted: one hour. */
const MAX_TIMEOUT_MS = 3_600_000;
const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const FIELDS = [
  "type",
  "command",
  "args",
  "env",
  "url",
  "headers",
  "network",
  "timeoutMs",
  "enabled",
];

/**
 * Parses the text of an MCP config file named `file`.
 * Contract: never throws; returns the servers in the file's order, or every problem, each
 * naming the server and field. `"env:NAME"` values are read only for enabled servers.
 */
export function parseMcpConfig(
  text: string,
  file: string,
  env: EnvReader,
): { ok: true; servers: ServerConfig[] } | { ok: false; problems: string[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, problems: [`invalid JSON (${reason})`] };
  }
  if (!isObject(data) || !isObject(data.mcpServers)) {
    return { ok: false, problems: ['expected {"mcpServers": {"NAME": {...}}}'] };
  }
  const problems = Object.keys(data).filter((key) => key !== "mcpServers")
    .map((key) => `field "${key}" is unknown`);
  const servers: ServerConfig[] = [];
  for (const [name, value] of Object.entries(data.mcpServers)) {
    const server = parseServer(name, value, { file, env, problems });
    if (server) servers.push(server);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, servers };
}

interface Context {
  file: string;
  env: EnvReader;
  problems: string[];
}

function parseServer(name: string, value: unknown, context: Context): ServerConfig | undefined {
  const problems: string[] = [];
  const at = (field: string, problem: string) =>
    problems.push(`server "${name}" field "${field}" ${problem}`);
  if (!NAME.test(name)) {
    context.problems.push(
      `server ${JSON.stringify(name)}: a name must be 1 to 64 letters, digits, "_" or "-"`,
    );
    return undefined;
  }
  if (!isObject(value)) {
    context.problems.push(`server "${name}" must be an object`);
    return undefined;
  }
  for (const key of Object.keys(value)) if (!FIELDS.includes(key)) at(key, "is unknown");
  const enabled = optionalBoolean(value, "enabled", at) ?? true;
  const timeoutMs = value.timeoutMs;
  if (timeoutMs !== undefined && (!isPositiveInteger(timeoutMs) || timeoutMs > MAX_TIMEOUT_MS)) {
    at("timeoutMs", `must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`);
  }
  const kind = kindOf(value, at);
  const read = (field: string, text: string) =>
    enabled ? resolveValue(text, field, at, context) : text;
  const base = {
    name,
    file: context.file,
    enabled,
    ...(isPositiveInteger(timeoutMs) ? { timeoutMs } : {}),
  };
  const server = kind === "stdio"
    ? { ...base, ...stdioFields(value, at, read) }
    : kind === "http"
    ? { ...base, ...httpFields(value, at, read) }
    : undefined;
  context.problems.push(...problems);
  return problems.length === 0 ? server : undefined;
}

/** Reports a problem with a field of the server. */
type At = (field: string, problem: string) => void;
/** A string value as configured, `"env:NAME"` read. */
type Read = (field: string, text: string) => string;

function stdioFields(value: Record<string, unknown>, at: At, read: Read) {
  if (!isString(value.command) || value.command.trim() === "") {
    at("command", "must be a non-empty string");
  } else if (value.command.includes("/") && !value.command.startsWith("/")) {
    // Servers start in "/", not in the workspace: a relative path would name nothing useful.
    at(
      "command",
      `is the relative path ${JSON.stringify(value.command)}: name a program found through ` +
        "PATH or give its absolute path",
    );
  }
  if (value.headers !== undefined) at("headers", "applies only to servers with a url");
  return {
    kind: "stdio" as const,
    command: isString(value.command) ? value.command : "",
    args: stringArray(value, "args", at).map((arg, i) => read(`args[${i}]`, arg)),
    env: stringMap(value, "env", at, read),
    network: optionalBoolean(value, "network", at) ?? false,
  };
}

function httpFields(value: Record<string, unknown>, at: At, read: Read) {
  if (!isString(value.url) || !/^https?:\/\/[^\s/]/.test(value.url)) {
    at("url", "must be an http(s) URL");
  }
  for (const field of ["args", "env", "network"]) {
    if (value[field] !== undefined) at(field, "applies only to servers with a command");
  }
  return {
    kind: "http" as const,
    url: isString(value.url) ? value.url : "",
    headers: stringMap(value, "headers", at, read),
  };
}

function kindOf(
  value: Record<string, unknown>,
  at: At,
): "stdio" | "http" | undefined {
  const { type } = value;
  if (type !== undefined && type !== "stdio" && type !== "http") {
    at(
      "type",
      type === "sse"
        ? 'is "sse", the old HTTP transport, which powercode does not speak; use the server\'s streamable HTTP URL'
        : 'must be "stdio" or "http"',
    );
    return undefined;
  }
  const hasCommand = value.command !== undefined;
  const hasUrl = value.url !== undefined;
  if (hasCommand && hasUrl) {
    at("url", 'cannot stand beside "command": a server is either a program or a URL');
    return undefined;
  }
  if (!hasCommand && !hasUrl) {
    at("command", 'is required (or "url", for a server reached over HTTP)');
    return undefined;
  }
  const kind = hasCommand ? "stdio" : "http";
  if (type !== undefined && type !== kind) {
    at("type", `is "${type}" but the server has a ${hasCommand ? "command" : "url"}`);
    return undefined;
  }
  return kind;
}

/** `"env:NAME"` becomes the variable's value; any other text stays as it is. */
function resolveValue(
  text: string,
  field: string,
  at: At,
  { env }: Context,
): string {
  if (!text.startsWith("env:")) return text;
  const name = text.slice("env:".length);
  let value: string | undefined;
  try {
    value = env(name) || undefined;
  } catch {
    at(field, `reads "${name}", but powercode may read only OPENAI_* and POWERCODE_* variables`);
    return "";
  }
  if (value === undefined) at(field, `reads environment variable "${name}", which is not set`);
  return value ?? "";
}

function optionalBoolean(
  value: Record<string, unknown>,
  field: string,
  at: At,
): boolean | undefined {
  const flag = value[field];
  if (flag === undefined || typeof flag === "boolean") return flag;
  at(field, "must be true or false");
  return undefined;
}

function stringArray(
  value: Record<string, unknown>,
  field: string,
  at: At,
): string[] {
  const list = value[field];
  if (list === undefined) return [];
  if (Array.isArray(list) && list.every(isString)) return list;
  at(field, "must be an array of strings");
  return [];
}

function stringMap(
  value: Record<string, unknown>,
  field: string,
  at: At,
  read: Read,
): Record<string, string> {
  const map = value[field];
  if (map === undefined) return {};
  if (!isObject(map)) {
    at(field, "must be an object of strings");
    return {};
  }
  const result: Record<string, string> = {};
  for (const [key, text] of Object.entries(map)) {
    if (!isString(text)) at(`${field}.${key}`, "must be a string");
    else if (field === "env" && !ENV_NAME.test(key)) {
      at(`${field}.${key}`, "is not a variable name");
    } else result[key] = read(`${field}.${key}`, text);
  }
  return result;
}
