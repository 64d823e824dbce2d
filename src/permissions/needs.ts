/**
 * "Asking for more": a bash call may name hosts (`need_hosts`) and directories outside the
 * roots (`need_dirs`) it must have; each is checked, matched against the `net(…)` and
 * `dir(…)` rules and the allowed hosts, and what no rule covers is asked about.
 *
 * @module
 */
import { matchHost, parseHostPattern } from "../core/mod.ts";
import { matchesHost, type Rule } from "./rule.ts";

/** What one call asks for beyond the sandbox, checked: host entries and real directories. */
export interface Needs {
  hosts: string[];
  dirs: string[];
}

/** Resolves a directory asked for to its real path, or says why it cannot be granted. */
export type DirCheck = (dir: string) => Promise<{ real: string } | { problem: string }>;

/** Whether a bash call's arguments ask for anything beyond the sandbox. */
export function asksForMore(args: unknown): boolean {
  const { need_hosts: hosts, need_dirs: dirs } = (args ?? {}) as Record<string, unknown>;
  return (Array.isArray(hosts) && hosts.length > 0) || (Array.isArray(dirs) && dirs.length > 0);
}

/**
 * The needs of a bash call's arguments, checked: every host entry parses, every directory
 * is granted by `checkDir` (its real path kept), the call is not a background one; or the
 * first problem, naming the entry.
 */
export async function readNeeds(args: unknown, checkDir: DirCheck): Promise<Needs | string> {
  const record = (args ?? {}) as Record<string, unknown>;
  if (record.background === true) {
    return "need_hosts and need_dirs do not apply to a background command";
  }
  const list = (value: unknown) => Array.isArray(value) ? value.map(String) : [];
  const hosts = list(record.need_hosts).map((host) => host.trim().toLowerCase());
  for (const [index, host] of hosts.entries()) {
    const parsed = parseHostPattern(host);
    if (typeof parsed === "string") return `need_hosts[${index}] "${host}" ${parsed}`;
    if (parsed.wildcard) return `need_hosts[${index}] "${host}" must name one host, not "*."`;
  }
  const dirs: string[] = [];
  for (const [index, dir] of list(record.need_dirs).entries()) {
    const checked = await checkDir(dir);
    if ("problem" in checked) return `need_dirs[${index}]: ${checked.problem}`;
    dirs.push(checked.real);
  }
  return { hosts: [...new Set(hosts)], dirs: [...new Set(dirs)] };
}

/**
 * How `rules` and the allowed hosts (`domains`) judge `needs`: the first deny rule that
 * names one, else the needs no allow rule or allowed host covers.
 */
export function judgeNeeds(
  needs: Needs,
  rules: readonly Rule[],
  domains: readonly string[],
): { deny: Rule; what: string } | { uncovered: Needs } {
  const allowed = domains.flatMap((text) => {
    const pattern = parseHostPattern(text);
    return typeof pattern === "string" ? [] : [pattern];
  });
  const hostRule = (list: Rule["list"], host: string) =>
    rules.find((rule) =>
      rule.list === list && rule.tool === "net" && rule.pattern !== undefined &&
      matchesHost(rule.pattern, host)
    );
  const dirRule = (list: Rule["list"], dir: string) =>
    rules.find((rule) => rule.list === list && rule.tool === "dir" && rule.pattern === dir);
  for (const host of needs.hosts) {
    const deny = hostRule("deny", host) ?? hostRule("deny", nameOf(host));
    if (deny) return { deny, what: host };
  }
  for (const dir of needs.dirs) {
    const deny = dirRule("deny", dir);
    if (deny) return { deny, what: dir };
  }
  const covered = (host: string) => {
    const parsed = parseHostPattern(host);
    if (typeof parsed === "string") return false;
    const { host: name, port } = parsed;
    if (hostRule("allow", host) ?? hostRule("allow", name)) return true;
    // Without a port the host is asked for on every port: only a list entry for all covers it.
    const listed = port === undefined
      ? allowed.filter((pattern) => pattern.port === undefined)
      : allowed;
    return matchHost(listed, name, port ?? 0) !== undefined;
  };
  return {
    uncovered: {
      hosts: needs.hosts.filter((host) => !covered(host)),
      dirs: needs.dirs.filter((dir) => !dirRule("allow", dir)),
    },
  };
}

/** The allow rules an "always" answer saves for `needs`: `net(host)`, `dir(/real/path)`. */
export function needRules(needs: Needs): string[] {
  return [...needs.hosts.map((host) => `net(${host})`), ...needs.dirs.map((dir) => `dir(${dir})`)];
}

/** `needs` in words, for the question: `network to a, b; writing /x`. */
export function describeNeeds(needs: Needs): string {
  return [
    ...(needs.hosts.length > 0 ? [`network to ${needs.hosts.join(", ")}`] : []),
    ...(needs.dirs.length > 0 ? [`writing ${needs.dirs.join(", ")}`] : []),
  ].join("; ");
}

/** The host of a `need_hosts` entry, without its port. */
function nameOf(entry: string): string {
  const parsed = parseHostPattern(entry);
  return typeof parsed === "string" ? entry : parsed.host;
}
