/**
 * The first request of a proxied connection: `CONNECT host:port` (HTTPS) or a request with an
 * absolute `http://` URI, read into its target and, for plain HTTP, the head to forward
 * (origin-form, hop-by-hop and proxy headers dropped, `Connection: close`).
 *
 * @module
 */

const REQUEST_LINE = /^([A-Z]+) (\S+) (HTTP\/1\.[01])\r\n/;
const HOST_NAME = /^[a-z0-9._-]+$|^\[[0-9a-f:.]+\]$/;
const HOP_HEADERS = /^(proxy-connection|proxy-authorization|connection|keep-alive):/i;

/** Where a proxy request goes, and the head to send there (plain HTTP). */
export interface ProxyRequest {
  connect: boolean;
  host: string;
  port: number;
  forward: string;
}

/** The target of a proxy request head, or why it is not one. */
export function readRequest(text: string): ProxyRequest | string {
  const line = REQUEST_LINE.exec(text);
  if (!line) return "not an HTTP/1.x request";
  const [whole, method = "", target = "", version = ""] = line;
  if (method === "CONNECT") {
    const authority = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(target.toLowerCase());
    if (!authority) return `CONNECT needs host:port, got "${target.slice(0, 200)}"`;
    return checked(true, authority[1] ?? "", Number(authority[2]), "");
  }
  if (!target.startsWith("http://")) {
    return target.startsWith("https://")
      ? "send HTTPS through CONNECT (set HTTPS_PROXY)"
      : "powercode's proxy takes requests with an absolute http:// URI or CONNECT";
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return `cannot read the URI "${target.slice(0, 200)}"`;
  }
  const headers = text.slice(whole.length).split("\r\n").filter((header) =>
    header !== "" && !HOP_HEADERS.test(header)
  );
  const forward = [`${method} ${url.pathname}${url.search} ${version}`, ...headers]
    .concat("Connection: close", "", "").join("\r\n");
  return checked(false, url.hostname, url.port === "" ? 80 : Number(url.port), forward);
}

function checked(
  connect: boolean,
  host: string,
  port: number,
  forward: string,
): ProxyRequest | string {
  const name = host.toLowerCase();
  if (!HOST_NAME.test(name) || port < 1 || port > 65535) {
    return `"${host.slice(0, 200)}:${port}" is not a host and port`;
  }
  return { connect, host: name, port, forward };
}
