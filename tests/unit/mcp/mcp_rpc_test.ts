import { assertEquals, assertRejects } from "@std/assert";
import { RpcError, RpcPeer } from "../../../src/mcp/rpc.ts";
import type { Transport, TransportHandlers } from "../../../src/mcp/transport.ts";
import { readEvents } from "../../../src/mcp/sse.ts";

/** A transport whose other side is the test: it sees what is sent and delivers answers. */
class LoopTransport implements Transport {
  sent: Record<string, unknown>[] = [];
  handlers: TransportHandlers | undefined;
  start(handlers: TransportHandlers): Promise<void> {
    this.handlers = handlers;
    return Promise.resolve();
  }
  send(message: Record<string, unknown>): Promise<void> {
    this.sent.push(message);
    return Promise.resolve();
  }
  agreed(): void {}
  close(): Promise<void> {
    return Promise.resolve();
  }
}

async function openPeer() {
  const transport = new LoopTransport();
  const closes: string[] = [];
  const peer = new RpcPeer(transport, (reason) => closes.push(reason));
  await peer.open();
  return { transport, peer, closes };
}

Deno.test("RpcPeer.request() resolves with the result of its id and rejects with the server's error", async () => {
  const { transport, peer } = await openPeer();
  const first = peer.request("a", { x: 1 }, { timeoutMs: 5000 });
  const second = peer.request("b", undefined, { timeoutMs: 5000 });
  assertEquals(transport.sent, [
    { jsonrpc: "2.0", id: 1, method: "a", params: { x: 1 } },
    { jsonrpc: "2.0", id: 2, method: "b" },
  ]);
  transport.handlers?.onMessage([
    { jsonrpc: "2.0", id: 2, error: { code: -32602, message: "bad params" } },
    { jsonrpc: "2.0", id: 1, result: { ok: true } },
  ]);
  assertEquals(await first, { ok: true });
  await assertRejects(() => second, RpcError, "bad params");
});

Deno.test("RpcPeer answers the server's ping and refuses its other requests", async () => {
  const { transport } = await openPeer();
  transport.handlers?.onMessage({ jsonrpc: "2.0", id: "p1", method: "ping" });
  transport.handlers?.onMessage({ jsonrpc: "2.0", id: 9, method: "sampling/createMessage" });
  transport.handlers?.onMessage({ jsonrpc: "2.0", method: "notifications/message" });
  await new Promise((resolve) => setTimeout(resolve, 0));
  assertEquals(transport.sent, [
    { jsonrpc: "2.0", id: "p1", result: {} },
    {
      jsonrpc: "2.0",
      id: 9,
      error: { code: -32601, message: 'powercode does not offer "sampling/createMessage"' },
    },
  ]);
});

Deno.test("RpcPeer cancels an aborted request and fails pending ones when the connection ends", async () => {
  const { transport, peer, closes } = await openPeer();
  const controller = new AbortController();
  const aborted = peer.request("slow", {}, { timeoutMs: 5000, signal: controller.signal });
  controller.abort();
  await assertRejects(() => aborted, Error, "interrupted by the user");
  assertEquals(transport.sent.at(-1), {
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: 1, reason: "interrupted by the user" },
  });
  const pending = peer.request("other", {}, { timeoutMs: 5000 });
  transport.handlers?.onClose("it exited with code 1");
  await assertRejects(() => pending, Error, "it exited with code 1");
  await assertRejects(() => peer.request("late", {}, { timeoutMs: 5000 }), Error, "exited");
  assertEquals(closes, ["it exited with code 1"]);
});

Deno.test("readEvents() yields the data of message events, also when a CRLF is split between chunks", async () => {
  const chunks = [
    ": a comment\r",
    '\nevent: message\r\ndata: {"a":\r',
    "\ndata: 1}\r\n\r\nevent: other\ndata: skipped\n\nid: 7\ndata: last",
  ];
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
  const data: string[] = [];
  await readEvents(body, (text) => data.push(text));
  assertEquals(data, ['{"a":\n1}', "last"]);
});
