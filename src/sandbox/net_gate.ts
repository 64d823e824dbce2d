/**
 * powercode's proxy for sandboxed commands, outside the sandbox: it serves the channel of
 * one sandbox's relay (see `net_relay.ts`), reads the first request of each connection and
 * connects only to the hosts of `network.allow`: HTTPS by `CONNECT host:port` (the host
 * name as asked, no interception: the tunnel carries TLS end to end), plain HTTP by a request
 * with an absolute URI, forwarded with `Connection: close`. Everything else is refused: a
 * host not on the list gets `403` with a body naming it.
 *
 * @module
 */
import { type HostPattern, matchHost } from "../core/mod.ts";
import {
  encodeFrame,
  FRAME_CLOSE,
  FRAME_DATA,
  FRAME_END,
  FRAME_OPEN,
  FrameReader,
  MAX_FRAME_PAYLOAD,
  pumpConn,
  serialWriter,
} from "./net_relay.ts";
import { readRequest } from "./proxy_request.ts";

/** One connection a command asked for, and the gate's answer. */
export interface NetConnection {
  host: string;
  port: number;
  allowed: boolean;
}

/** A byte stream both ways: one sandbox's end of the relay's socket pair. */
export interface ByteChannel {
  readable: AsyncIterable<Uint8Array>;
  write(bytes: Uint8Array): Promise<number>;
  close(): void;
}

/** The longest request head read before the host is known. */
const MAX_HEAD_BYTES = 64 * 1024;
/** Connections of one sandbox at the same time. */
const MAX_LINKS = 256;
/** Bytes waiting for a slow upstream before the channel stops being read. */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;

/** One relayed connection. */
interface Link {
  id: number;
  head: Uint8Array | undefined;
  upstream: Deno.Conn | undefined;
  ops: Promise<void>;
  queued: number;
  clientEnded: boolean;
  upstreamEnded: boolean;
}

/**
 * The allow list and the serving of relay channels.
 * Contract: connects only to a host and port a pattern allows; reports every decision once
 * per connection through `onConnection`; never throws from `serve`.
 */
export class NetworkGate {
  readonly patterns: readonly HostPattern[];

  /** A gate allowing `patterns`; none refuses every connection (a preview's gate). */
  constructor(patterns: readonly HostPattern[]) {
    this.patterns = patterns;
  }

  /** The loopback names commands reach directly (their own namespace's), not through the gate. */
  noProxy(): string {
    const names = ["localhost", "127.0.0.1", "::1"];
    return names.filter((name) => !this.patterns.some((p) => p.host === name)).join(",");
  }

  /** Serves `channel` until it ends, then closes every upstream connection it opened. */
  async serve(channel: ByteChannel, onConnection: (c: NetConnection) => void): Promise<void> {
    const send = serialWriter((bytes) => channel.write(bytes));
    const links = new Map<number, Link>();
    const reader = new FrameReader();
    const finish = (link: Link) => {
      if (!links.delete(link.id)) return;
      link.upstream?.close();
      void send(encodeFrame(FRAME_CLOSE, link.id)).catch(() => {});
    };
    const serve = { send, finish, onConnection, patterns: this.patterns };
    try {
      for await (const chunk of channel.readable) {
        for (const { type, id, payload } of reader.push(chunk)) {
          if (type === FRAME_OPEN && !links.has(id)) {
            const link = newLink(id);
            if (links.size >= MAX_LINKS) finish(link);
            else links.set(id, link);
            continue;
          }
          const link = links.get(id);
          if (link === undefined) continue;
          link.queued += payload.length;
          link.ops = link.ops.then(() => step(link, type, payload, serve)).catch(() => finish(link))
            .finally(() => link.queued -= payload.length);
          if (link.queued > MAX_QUEUED_BYTES) await link.ops;
        }
      }
    } catch {
      // a malformed frame or a broken channel ends this sandbox's network
    } finally {
      for (const link of links.values()) link.upstream?.close();
      links.clear();
      channel.close();
    }
  }
}

interface Serving {
  send: (bytes: Uint8Array) => Promise<void>;
  finish: (link: Link) => void;
  onConnection: (c: NetConnection) => void;
  patterns: readonly HostPattern[];
}

function newLink(id: number): Link {
  return {
    id,
    head: new Uint8Array(),
    upstream: undefined,
    ops: Promise.resolve(),
    queued: 0,
    clientEnded: false,
    upstreamEnded: false,
  };
}

/** One frame of the client's side of `link`. */
async function step(link: Link, type: number, payload: Uint8Array, serving: Serving) {
  if (type === FRAME_CLOSE) return serving.finish(link);
  if (type === FRAME_END) {
    link.clientEnded = true;
    if (link.upstream === undefined || link.upstreamEnded) return serving.finish(link);
    return await link.upstream.closeWrite();
  }
  if (link.head === undefined) return await writeAll(link.upstream, payload);
  const head = concat(link.head, payload);
  const end = indexOfBlankLine(head);
  if (end === -1) {
    if (head.length <= MAX_HEAD_BYTES) link.head = head;
    else await refuse(link, serving, 431, "the request head is larger than 64 KB");
    return;
  }
  link.head = undefined;
  await open(link, head.subarray(0, end + 4), head.subarray(end + 4), serving);
}

/** Decides about the request `head` and, when allowed, connects and sends it on. */
async function open(link: Link, head: Uint8Array, rest: Uint8Array, serving: Serving) {
  const text = new TextDecoder("latin1").decode(head);
  const request = readRequest(text);
  if (typeof request === "string") return await refuse(link, serving, 400, request);
  const { host, port } = request;
  const allowed = matchHost(serving.patterns, host, port) !== undefined;
  serving.onConnection({ host, port, allowed });
  const target = `${host}:${port}`;
  if (!allowed) {
    return await refuse(
      link,
      serving,
      403,
      `powercode refused the connection to "${target}": the host is not in network.allow ` +
        "(settings.json) or --allow-domain",
    );
  }
  try {
    link.upstream = await Deno.connect({ hostname: host.replace(/^\[(.*)\]$/, "$1"), port });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return await refuse(
      link,
      serving,
      502,
      `powercode's proxy cannot reach "${target}": ${reason}`,
    );
  }
  const upstream = link.upstream;
  if (request.connect) {
    await sendData(link.id, encode("HTTP/1.1 200 Connection Established\r\n\r\n"), serving);
    await writeAll(upstream, rest);
  } else {
    await writeAll(upstream, concat(encode(request.forward), rest));
  }
  void relayUpstream(link, upstream, serving);
}

/**
 * Sends what `upstream` answers to the client, then its end.
 * Contract: never rejects: a channel that broke (the sandbox ended) ends `serve`, which closes
 * every link.
 */
async function relayUpstream(link: Link, upstream: Deno.Conn, serving: Serving) {
  try {
    await pumpConn(upstream, (chunk) => sendData(link.id, chunk, serving)).catch(() => {});
    link.upstreamEnded = true;
    await serving.send(encodeFrame(FRAME_END, link.id));
    if (link.clientEnded) serving.finish(link);
  } catch {
    // the channel is gone: serve's loop ends and closes the upstream
  }
}

/** Answers the client with `status` and `message` as a plain-text body, then ends the link. */
async function refuse(link: Link, serving: Serving, status: number, message: string) {
  const reason = { 400: "Bad Request", 403: "Forbidden", 431: "Request Header Fields Too Large" }[
    status as 400 | 403 | 431
  ] ?? "Bad Gateway";
  const body = `${message}\n`;
  const response = `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
    `Content-Length: ${encode(body).length}\r\nConnection: close\r\n\r\n${body}`;
  await sendData(link.id, encode(response), serving);
  await serving.send(encodeFrame(FRAME_END, link.id));
  serving.finish(link);
}

async function sendData(id: number, bytes: Uint8Array, serving: Serving): Promise<void> {
  for (let at = 0; at < bytes.length; at += MAX_FRAME_PAYLOAD) {
    await serving.send(encodeFrame(FRAME_DATA, id, bytes.subarray(at, at + MAX_FRAME_PAYLOAD)));
  }
}

async function writeAll(conn: Deno.Conn | undefined, bytes: Uint8Array): Promise<void> {
  if (conn === undefined) return;
  for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
}

function indexOfBlankLine(bytes: Uint8Array): number {
  for (let at = 0; at + 3 < bytes.length; at++) {
    if (bytes[at] === 13 && bytes[at + 1] === 10 && bytes[at + 2] === 13 && bytes[at + 3] === 10) {
      return at;
    }
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

function encode(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
