/**
 * A pass-through HTTP proxy in front of the fake server that records, per request, how
 * long the server side took, so a benchmark can subtract it from what the client measured.
 *
 * @module
 */
import { epochMs } from "./stats.ts";

/** One request as the proxy saw it. */
export interface ServedRequest {
  path: string;
  status: number;
  /** When the request reached the proxy, in {@link epochMs} time. */
  arrivedAt: number;
  /** From arrival until the whole reply was read from the fake server. */
  serverMs: number;
  /** Request body size. */
  requestBytes: number;
  /** Reply body size. */
  responseBytes: number;
}

/** A running proxy. */
export interface TimingProxy {
  /** Base URL to give the client, e.g. `http://127.0.0.1:41235/v1`. */
  url: string;
  /** The requests recorded since the last call, oldest first. */
  take(): ServedRequest[];
  close(): Promise<void>;
}

const FORWARDED_HEADERS = ["authorization", "content-type", "accept"];

/**
 * Starts a proxy on 127.0.0.1 forwarding every request to `upstream` (an origin).
 * Contract: the reply is read whole before it is passed on, so `serverMs` covers the fake
 * server's validation, token counting and reply rendering; loopback transfer to the client
 * is not in it.
 */
export async function startTimingProxy(upstream: string): Promise<TimingProxy> {
  let log: ServedRequest[] = [];
  const listening = Promise.withResolvers<void>();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => listening.resolve() },
    async (request) => {
      const arrivedAt = epochMs();
      const start = performance.now();
      const body = new Uint8Array(await request.arrayBuffer());
      const url = new URL(request.url);
      const headers = new Headers();
      for (const name of FORWARDED_HEADERS) {
        const value = request.headers.get(name);
        if (value !== null) headers.set(name, value);
      }
      const reply = await fetch(`${upstream}${url.pathname}${url.search}`, {
        method: request.method,
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      const bytes = new Uint8Array(await reply.arrayBuffer());
      log.push({
        path: url.pathname,
        status: reply.status,
        arrivedAt,
        serverMs: performance.now() - start,
        requestBytes: body.length,
        responseBytes: bytes.length,
      });
      const type = reply.headers.get("content-type") ?? "application/json";
      return new Response(bytes, { status: reply.status, headers: { "content-type": type } });
    },
  );
  await listening.promise;
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    take() {
      const taken = log;
      log = [];
      return taken;
    },
    close: () => server.shutdown(),
  };
}
