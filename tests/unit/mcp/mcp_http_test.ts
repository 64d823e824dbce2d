import { assert, assertRejects } from "@std/assert";
import { HttpTransport } from "../../../src/mcp/http_transport.ts";
import { RpcPeer } from "../../../src/mcp/rpc.ts";

/** A request through an HttpTransport to a server answering with `respond`. */
async function requestThrough(respond: () => Response): Promise<unknown> {
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, respond);
  const url = `http://127.0.0.1:${server.addr.port}/mcp?key=secret-in-url`;
  const peer = new RpcPeer(new HttpTransport(url, { Authorization: "Bearer secret" }));
  await peer.open();
  try {
    return await peer.request("tools/list", {}, { timeoutMs: 5000 });
  } finally {
    await peer.close();
  }
}

async function assertFails(respond: () => Response, message: string): Promise<void> {
  const error = await assertRejects(() => requestThrough(respond), Error, message);
  assert(!error.message.includes("secret"), error.message);
}

Deno.test("HttpTransport fails a request whose event stream ends without its answer", async () => {
  await assertFails(
    () =>
      new Response('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/x"}\n\n', {
        headers: { "content-type": "text/event-stream" },
      }),
    "the server closed the stream without answering",
  );
});

Deno.test("HttpTransport says what the server refused, never the URL or headers", async () => {
  await assertFails(
    () => new Response("no", { status: 401 }),
    'the server refused the request (HTTP 401): check "headers" in the config',
  );
  await assertFails(
    () => new Response("overloaded\nmore", { status: 503 }),
    "the server answered HTTP 503: overloaded",
  );
  await assertFails(
    () => new Response(null, { status: 307, headers: { location: "https://elsewhere/mcp" } }),
    "the server redirects elsewhere (HTTP 307)",
  );
  await assertFails(
    () => new Response("<html>", { headers: { "content-type": "text/html" } }),
    'the server answered with content type "text/html", not JSON or events',
  );
});

Deno.test("HttpTransport says when the server cannot be reached", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  listener.close();
  const peer = new RpcPeer(new HttpTransport(`http://127.0.0.1:${port}/mcp`, {}));
  await peer.open();
  await assertRejects(
    () => peer.request("initialize", {}, { timeoutMs: 5000 }),
    Error,
    "cannot reach the server (connection refused)",
  );
  await peer.close();
});
