/**
 * Worker entry: runs the fake OpenAI server and its timing proxy on their own thread, so
 * the server's token counting never runs on the thread being measured.
 *
 * Protocol: `{type: "start", script}` → `{type: "ready", url}`; `{type: "take"}` →
 * `{type: "log", requests}`; `{type: "close"}` → `{type: "closed"}`.
 *
 * @module
 */
import { startFakeServer } from "../tests/support/fake_server.ts";
import { createHandler, type ScriptName } from "./handlers.ts";
import { startTimingProxy, type TimingProxy } from "./timing_proxy.ts";

/** A message to the worker. */
export type WorkerRequest =
  | { type: "start"; script: ScriptName }
  | { type: "take" }
  | { type: "close" };

interface WorkerScope {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
}

const scope = self as unknown as WorkerScope;
let running: { proxy: TimingProxy; close(): Promise<void> } | undefined;

scope.onmessage = async (event) => {
  const message = event.data;
  switch (message.type) {
    case "start": {
      const server = await startFakeServer({
        handler: createHandler(message.script),
        model: "bench-model",
      });
      const proxy = await startTimingProxy(new URL(server.url).origin);
      running = {
        proxy,
        close: async () => {
          await proxy.close();
          await server.close();
        },
      };
      return scope.postMessage({ type: "ready", url: proxy.url });
    }
    case "take":
      return scope.postMessage({ type: "log", requests: running?.proxy.take() ?? [] });
    case "close":
      await running?.close();
      return scope.postMessage({ type: "closed" });
    default: {
      const unknown: never = message;
      throw new TypeError(`Cannot handle worker message ${JSON.stringify(unknown)}`);
    }
  }
};
