/**
 * Whether a host is on the user's list of allowed hosts (`network.allow` of the settings):
 * names, `*.` wildcards and IP addresses.
 *
 * @module
 */

/**
 * Whether `host` (a URL's hostname: lower case, IPv6 in brackets) is on `allowed`.
 * Contract: pure; a name matches itself, case-insensitively and without a trailing dot;
 * `*.example.com` matches every name below `example.com` but not `example.com` itself; an
 * IP address matches only itself (IPv6 with or without brackets); `*` alone matches nothing.
 */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const name = normalize(host);
  return allowed.some((entry) => {
    const rule = normalize(entry);
    if (rule.startsWith("*.")) return rule.length > 2 && name.endsWith(rule.slice(1));
    return rule !== "" && rule !== "*" && rule === name;
  });
}

function normalize(host: string): string {
  const lower = host.trim().toLowerCase().replace(/\.$/, "");
  return lower.startsWith("[") && lower.endsWith("]") ? lower.slice(1, -1) : lower;
}
