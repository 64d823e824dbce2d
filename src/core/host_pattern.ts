/**
 * Host patterns of `network.allow` and `--allow-domain`: a host name, a `*.` wildcard or an
 * IP address, any port unless written `host:port`; and the one matcher the proxy asks.
 *
 * @module
 */

/** One allowed host. */
export interface HostPattern {
  /** The host in lower case, without the `*.` of a wildcard; an IPv6 address without brackets. */
  host: string;
  /** `*.example.com`: every name below `example.com`, not `example.com` itself. */
  wildcard: boolean;
  /** The one port allowed; undefined allows any. */
  port?: number;
  /** The entry as written. */
  text: string;
}

const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9a-f:.]+$/;

/**
 * Reads one entry; a string is the problem, in words that follow the entry.
 * Contract: pure; accepts `name`, `*.name`, an IPv4 address, `[IPv6]`, each with an
 * optional `:port` (1–65535).
 */
export function parseHostPattern(text: string): HostPattern | string {
  let rest = text.trim().toLowerCase();
  let port: number | undefined;
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(rest);
  if (bracket) {
    const [, address = "", portText] = bracket;
    if (!IPV6.test(address) || !address.includes(":")) return "is not an IPv6 address";
    if (portText !== undefined) {
      port = Number(portText);
      if (!validPort(port)) return "has a port outside 1-65535";
    }
    return { host: address, wildcard: false, ...(port !== undefined ? { port } : {}), text };
  }
  const colon = rest.lastIndexOf(":");
  if (colon !== -1) {
    if (rest.indexOf(":") !== colon) return "is an IPv6 address: write it in brackets, [::1]";
    port = Number(rest.slice(colon + 1));
    if (!/^\d+$/.test(rest.slice(colon + 1)) || !validPort(port)) {
      return "has a port outside 1-65535";
    }
    rest = rest.slice(0, colon);
  }
  const wildcard = rest.startsWith("*.");
  const host = (wildcard ? rest.slice(2) : rest).replace(/\.$/, "");
  if (host === "") return "names no host";
  if (!IPV4.test(host) && !host.split(".").every((label) => LABEL.test(label))) {
    return 'is not a host name, "*." wildcard or IP address';
  }
  if (wildcard && !host.includes(".")) {
    return 'is a wildcard of a top-level name: use "*.example.com"';
  }
  return { host, wildcard, ...(port !== undefined ? { port } : {}), text };
}

/**
 * The first pattern that allows `host` on `port`, or undefined.
 * Contract: pure; `host` is compared in lower case without a trailing dot (and an IPv6
 * address without brackets); a wildcard matches names below its host only.
 */
export function matchHost(
  patterns: readonly HostPattern[],
  host: string,
  port: number,
): HostPattern | undefined {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
  return patterns.find((pattern) =>
    (pattern.port === undefined || pattern.port === port) &&
    (pattern.wildcard ? name.endsWith(`.${pattern.host}`) : name === pattern.host)
  );
}

function validPort(port: number): boolean {
  return Number.isInteger(port) && port >= 1 && port <= 65535;
}
