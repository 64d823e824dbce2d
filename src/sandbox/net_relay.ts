/**
 * The relay inside the sandbox: the one process of a command's network namespace that can
 * reach powercode's proxy. It listens on the namespace's own loopback (`127.0.0.1`, a port
 * the kernel picks) and carries every connection it accepts, framed, over its stdin and
 * stdout: one end of a stream socket pair that powercode made and bubblewrap passed in as an
 * inherited descriptor (so no `socket()` call is needed, which the seccomp filter refuses for
 * Unix sockets). It writes the port on stderr once it listens.
 *
 * Nothing here is trusted: a command can kill or replace the relay; all it reaches then is
 * the proxy, which decides every connection (see `net_gate.ts`). No imports, so that
 * `deno run` loads this one file.
 *
 * @module
 */

/** Frame types: a connection opened (relay to proxy), bytes, one side's end, a whole close. */
export const FRAME_OPEN = 1;
export const FRAME_DATA = 2;
export const FRAME_END = 3;
export const FRAME_CLOSE = 4;
/** type (1 byte), connection id (4), payload length (4). */
export const FRAME_HEADER = 9;
/** The largest payload of one frame. */
export const MAX_FRAME_PAYLOAD = 64 * 1024;

/** One frame of the relay's channel. */
export interface Frame {
  type: number;
  id: number;
  payload: Uint8Array;
}

/** The bytes of one frame. */
export function encodeFrame(type: number, id: number, payload?: Uint8Array): Uint8Array {
  const body = payload ?? new Uint8Array();
  const frame = new Uint8Array(FRAME_HEADER + body.length);
  const view = new DataView(frame.buffer);
  view.setUint8(0, type);
  view.setUint32(1, id);
  view.setUint32(5, body.length);
  frame.set(body, FRAME_HEADER);
  return frame;
}

/**
 * Splits a byte stream into frames.
 * Contract: `push` throws a `RangeError` on an unknown type or a payload over
 * {@linkcode MAX_FRAME_PAYLOAD}; the stream is then unusable.
 */
export class FrameReader {
  #buffer = new Uint8Array();

  /** The whole frames `chunk` completes, in order. */
  push(chunk: Uint8Array): Frame[] {
    const joined = new Uint8Array(this.#buffer.length + chunk.length);
    joined.set(this.#buffer);
    joined.set(chunk, this.#buffer.length);
    const frames: Frame[] = [];
    let at = 0;
    while (joined.length - at >= FRAME_HEADER) {
      const view = new DataView(joined.buffer, at);
      const type = view.getUint8(0);
      const length = view.getUint32(5);
      if (type < FRAME_OPEN || type > FRAME_CLOSE || length > MAX_FRAME_PAYLOAD) {
        throw new RangeError("Cannot read the relay's channel: a malformed frame");
      }
      if (joined.length - at < FRAME_HEADER + length) break;
      const payload = joined.slice(at + FRAME_HEADER, at + FRAME_HEADER + length);
      frames.push({ type, id: view.getUint32(1), payload });
      at += FRAME_HEADER + length;
    }
    this.#buffer = joined.slice(at);
    return frames;
  }
}

/** Writes whole chunks to `write` one after another (frames never interleave). */
export function serialWriter(
  write: (bytes: Uint8Array) => Promise<number>,
): (bytes: Uint8Array) => Promise<void> {
  let last: Promise<void> = Promise.resolve();
  return (bytes) => {
    last = last.then(async () => {
      for (let at = 0; at < bytes.length;) at += await write(bytes.subarray(at));
    });
    return last;
  };
}

/**
 * Reads `conn` until its peer ends its side, handing each chunk to `onChunk` (awaited).
 * Unlike `conn.readable`, it leaves the connection open for writing (a half-close).
 */
export async function pumpConn(
  conn: Deno.Conn,
  onChunk: (chunk: Uint8Array) => Promise<void>,
): Promise<void> {
  const buffer = new Uint8Array(MAX_FRAME_PAYLOAD);
  for (let read = await conn.read(buffer); read !== null; read = await conn.read(buffer)) {
    await onChunk(buffer.slice(0, read));
  }
}

/**
 * Runs the relay: listens on 127.0.0.1, says the port on stderr, and carries each accepted
 * connection over stdin/stdout until stdin ends.
 */
export async function runRelay(): Promise<void> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const send = serialWriter((bytes) => Deno.stdout.write(bytes));
  const connections = new Map<number, { conn: Deno.Conn; writes: Promise<void> }>();
  await Deno.stderr.write(new TextEncoder().encode(`${listener.addr.port}\n`));
  const deliver = ({ type, id, payload }: Frame) => {
    const entry = connections.get(id);
    if (entry === undefined) return;
    const { conn } = entry;
    entry.writes = entry.writes.then(async () => {
      if (type === FRAME_DATA) {
        for (let at = 0; at < payload.length;) at += await conn.write(payload.subarray(at));
      } else if (type === FRAME_END) await conn.closeWrite();
      else if (type === FRAME_CLOSE) close(id);
    }).catch(() => close(id));
  };
  const close = (id: number) => {
    const entry = connections.get(id);
    if (entry === undefined) return;
    connections.delete(id);
    try {
      entry.conn.close();
    } catch {
      // closed already
    }
  };
  void (async () => {
    const reader = new FrameReader();
    try {
      for await (const chunk of Deno.stdin.readable) {
        for (const frame of reader.push(chunk)) deliver(frame);
      }
    } finally {
      Deno.exit(0);
    }
  })();
  let next = 1;
  for await (const conn of listener) {
    const id = next++;
    connections.set(id, { conn, writes: Promise.resolve() });
    void send(encodeFrame(FRAME_OPEN, id));
    void (async () => {
      try {
        await pumpConn(conn, (chunk) => send(encodeFrame(FRAME_DATA, id, chunk)));
        await send(encodeFrame(FRAME_END, id));
      } catch {
        await send(encodeFrame(FRAME_CLOSE, id));
        close(id);
      }
    })();
  }
}

if (import.meta.main) await runRelay();
