/**
 * The chat client's two deadlines, against a real HTTP server on 127.0.0.1: no headers in
 * time, and a stream that goes quiet; a stream that keeps sending outlives its idle period.
 */
import { assertEquals, assertRejects } from "@std/assert";
import { ChatError, createChatClient } from "../../../src/model/mod.ts";

const encoder = new TextEncoder();
const CHUNK = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "a" } }] })}\n\n`;
const END = `data: ${
  JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })
}\n\ndata: [DONE]\n\n`;
const sleep = (ms: number) => new Promise((resolve) => AbortSignal.timeout(ms).onabort = resolve);

/** Serves each request with `respond`, until disposed. */
function serve(respond: (signal: AbortSignal) => Promise<Response>) {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => respond(request.signal),
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** An event stream sending `chunks` with `gapMs` between them, then the end unless `stall`. */
function stream(chunks: number, gapMs: number, stall: boolean, signal: AbortSignal): Response {
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (let sent = 0; sent < chunks && !signal.aborted; sent++) {
        controller.enqueue(encoder.encode(CHUNK));
        await sleep(gapMs);
      }
      if (stall) {
        await new Promise((resolve) => signal.addEventListener("abort", resolve));
        return;
      }
      controller.enqueue(encoder.encode(END));
      controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

/** A client of `url` that does not retry, with the deadlines of `deadlines`. */
function clientOf(url: string, deadlines: { idleTimeoutMs?: number; requestTimeoutMs?: number }) {
  return createChatClient({ baseURL: url, apiKey: "k", model: "m", maxRetries: 0, ...deadlines });
}

const ASK = { system: "s", messages: [{ role: "user" as const, content: "hi" }] };

Deno.test("a stream that goes quiet fails after the idle period, naming it", async () => {
  await using server = serve((signal) => Promise.resolve(stream(1, 0, true, signal)));
  const client = clientOf(server.url, { idleTimeoutMs: 200 });
  const error = await assertRejects(() => client.complete(ASK), ChatError);
  assertEquals(error.message, "The model stopped sending for 0.2 s");
});

Deno.test("a stream that keeps sending outlives its idle period", async () => {
  await using server = serve((signal) => Promise.resolve(stream(8, 80, false, signal)));
  const client = clientOf(server.url, { idleTimeoutMs: 400 });
  const reply = await client.complete(ASK);
  assertEquals(reply.message.content, "aaaaaaaa");
});

Deno.test("no headers within the request timeout is a timeout", async () => {
  await using server = serve(async (signal) => {
    await new Promise((resolve) => signal.addEventListener("abort", resolve));
    return new Response("late");
  });
  const client = clientOf(server.url, { requestTimeoutMs: 200 });
  const error = await assertRejects(() => client.complete(ASK), ChatError);
  assertEquals(
    error.message,
    `Cannot reach the model server at "${server.url}" (the connection timed out): is the ` +
      'server running, and is "baseURL" in provider.json right?',
  );
});
