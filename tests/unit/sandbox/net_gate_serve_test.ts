/**
 * NetworkGate.serve() over a channel that breaks (the sandbox ended, its pipe gives EPIPE):
 * every failed write stays inside the gate, none is an unhandled rejection of the process.
 */
import { assertEquals } from "@std/assert";
import { parseHostPattern } from "../../../src/core/mod.ts";
import { NetworkGate } from "../../../src/sandbox/mod.ts";
import type { ByteChannel } from "../../../src/sandbox/net_gate.ts";
import { encodeFrame, FRAME_DATA, FRAME_OPEN } from "../../../src/sandbox/net_relay.ts";
import type { HostPattern } from "../../../src/core/mod.ts";

Deno.test("NetworkGate.serve(): a channel that fails every write leaves no unhandled rejection", async () => {
  const unhandled: unknown[] = [];
  const record = (event: PromiseRejectionEvent) => {
    event.preventDefault();
    unhandled.push(event.reason);
  };
  globalThis.addEventListener("unhandledrejection", record);
  const upstream = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("from the host\n"),
  );
  try {
    const writes = Promise.withResolvers<void>();
    let attempts = 0;
    const request = `GET http://127.0.0.1:${upstream.addr.port}/ HTTP/1.1\r\n` +
      `Host: 127.0.0.1:${upstream.addr.port}\r\nConnection: close\r\n\r\n`;
    const channel: ByteChannel = {
      readable: (async function* () {
        yield encodeFrame(FRAME_OPEN, 1);
        yield encodeFrame(FRAME_DATA, 1, new TextEncoder().encode(request));
        // The channel stays open until the gate has tried to answer, as a dying pipe does.
        await writes.promise;
        await new Promise((resolve) => setTimeout(resolve, 50));
      })(),
      write: () => {
        attempts++;
        writes.resolve();
        return Promise.reject(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      },
      close: () => {},
    };
    const gate = new NetworkGate([parseHostPattern("127.0.0.1") as HostPattern]);
    await gate.serve(channel, () => {});
    // Whatever the gate left pending settles within a few turns of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assertEquals(attempts > 0, true, "the gate tried to answer through the channel");
    assertEquals(unhandled.map(String), []);
  } finally {
    globalThis.removeEventListener("unhandledrejection", record);
    await upstream.shutdown();
  }
});
