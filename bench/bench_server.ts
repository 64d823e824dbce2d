/**
 * The benchmark's fake OpenAI server, running in a worker thread behind a timing proxy.
 *
 * @module
 */
import type { ScriptName } from "./handlers.ts";
import type { WorkerRequest } from "./server_worker.ts";
import type { ServedRequest } from "./timing_proxy.ts";

export type { ServedRequest } from "./timing_proxy.ts";

/** A running bench server. */
export interface BenchServer extends AsyncDisposable {
  /** Base URL for provider.json or `createChatClient`. */
  url: string;
  /** The requests served since the last call, oldest first. */
  take(): Promise<ServedRequest[]>;
  close(): Promise<void>;
}

/**
 * Starts a fake server playing `script` in a new worker.
 * Contract: `close` stops both servers and terminates the worker; closing twice is harmless.
 */
export async function startBenchServer(script: ScriptName): Promise<BenchServer> {
  const worker = new Worker(new URL("./server_worker.ts", import.meta.url), { type: "module" });
  const ask = (request: WorkerRequest, reply: string) => {
    const answer = Promise.withResolvers<Record<string, unknown>>();
    worker.onmessage = (event: MessageEvent<Record<string, unknown>>) => {
      if (event.data.type === reply) answer.resolve(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      answer.reject(new Error(`Bench server worker failed: ${event.message}`));
    };
    worker.postMessage(request);
    return answer.promise;
  };
  const ready = await ask({ type: "start", script }, "ready");
  let closed: Promise<void> | undefined;
  const close = () =>
    closed ??= (async () => {
      await ask({ type: "close" }, "closed");
      worker.terminate();
    })();
  return {
    url: String(ready.url),
    take: async () => (await ask({ type: "take" }, "log")).requests as ServedRequest[],
    close,
    [Symbol.asyncDispose]: close,
  };
}
