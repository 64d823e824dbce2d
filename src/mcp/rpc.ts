/**
 * JSON-RPC 2.0 over a {@linkcode Transport}: requests with ids, timeouts and cancellation
 * (the server is told through `notifications/cancelled`), answers to the server's own
 * requests (`ping`; anything else is "method not found").
 *
 * @module
 */
import { isObject } from "../core/mod.ts";
import type { Transport } from "./transport.ts";

/** An error the server answered a request with. */
export class RpcError extends Error {
  /** The JSON-RPC error code. */
  readonly code: number;

  /** Creates the error of `code` with the server's `message`. */
  constructor(code: number, message: string) {
    super(message);
    this.name = "RpcError";
    this.code = code;
  }
}

/** Limits of one request. */
export interface RequestOptions {
  /** Aborting rejects the request and tells the server to cancel it. */
  signal?: AbortSignal;
  timeoutMs: number;
  /** `initialize` must not be cancelled (the protocol says so); default true. */
  cancellable?: boolean;
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

const METHOD_NOT_FOUND = -32601;

/**
 * One side of a JSON-RPC connection: powercode's, the client.
 * Contract: every request settles: with its result, an {@linkcode RpcError}, or an Error
 * when it timed out, was aborted or the connection closed.
 */
export class RpcPeer {
  #transport: Transport;
  #next = 1;
  #pending = new Map<number, Pending>();
  #closed: string | undefined;
  #onClose: (reason: string) => void;

  /** A peer on `transport`; `onClose` hears once why the connection ended. */
  constructor(transport: Transport, onClose: (reason: string) => void = () => {}) {
    this.#transport = transport;
    this.#onClose = onClose;
  }

  /** Opens the transport. Contract: throws when the server cannot be reached or started. */
  async open(): Promise<void> {
    await this.#transport.start({
      onMessage: (message) => this.#receive(message),
      onClose: (reason) => this.#close(reason),
    });
  }

  /** Why the connection ended; undefined while it is open. */
  get closed(): string | undefined {
    return this.#closed;
  }

  /** Sends a request and waits for its result. */
  async request(method: string, params: unknown, options: RequestOptions): Promise<unknown> {
    if (this.#closed !== undefined) throw new Error(this.#closed);
    const { signal, timeoutMs } = options;
    signal?.throwIfAborted();
    const id = this.#next++;
    const answer = new Promise<unknown>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
    });
    const local = new AbortController();
    const stop = (error: Error, tell: string | undefined) => {
      const pending = this.#pending.get(id);
      if (!pending) return;
      this.#pending.delete(id);
      local.abort();
      pending.reject(error);
      if (tell !== undefined && options.cancellable !== false) {
        const params = { requestId: id, reason: tell };
        void this.notify("notifications/cancelled", params).catch(() => {});
      }
    };
    const timer = setTimeout(() => {
      const seconds = timeoutMs / 1000;
      const told = options.cancellable === false ? "" : "; the server was told to cancel it";
      stop(new Error(`no answer within ${seconds} s${told}`), `timed out after ${seconds} s`);
    }, timeoutMs);
    const onAbort = () => stop(new Error("interrupted by the user"), "interrupted by the user");
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const message = { jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) };
      await this.#transport.send(message, local.signal).catch((error: unknown) => {
        stop(error instanceof Error ? error : new Error(String(error)), undefined);
      });
      return await answer;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Sends a notification. Contract: throws when it cannot be delivered. */
  async notify(method: string, params?: unknown): Promise<void> {
    if (this.#closed !== undefined) throw new Error(this.#closed);
    await this.#transport.send({
      jsonrpc: "2.0",
      method,
      ...(params === undefined ? {} : { params }),
    });
  }

  /** Closes the transport; pending requests fail with `reason`. Contract: never throws. */
  async close(reason = "the connection was closed"): Promise<void> {
    this.#close(reason);
    await this.#transport.close();
  }

  #close(reason: string): void {
    if (this.#closed !== undefined) return;
    this.#closed = reason;
    for (const pending of this.#pending.values()) pending.reject(new Error(reason));
    this.#pending.clear();
    this.#onClose(reason);
  }

  #receive(message: unknown): void {
    if (Array.isArray(message)) {
      for (const item of message) this.#receive(item);
      return;
    }
    if (!isObject(message)) return;
    const { id, method } = message;
    if (typeof method === "string") {
      if (id !== undefined) void this.#answer(id, method);
      return;
    }
    const pending = typeof id === "number" ? this.#pending.get(id) : undefined;
    if (!pending || typeof id !== "number") return;
    this.#pending.delete(id);
    const { error } = message;
    if (error === undefined) return pending.resolve(message.result);
    const code = isObject(error) && typeof error.code === "number" ? error.code : 0;
    const text = isObject(error) && typeof error.message === "string"
      ? error.message
      : JSON.stringify(error);
    pending.reject(new RpcError(code, text));
  }

  /** Answers a request from the server: `ping` with `{}`, anything else as unknown. */
  async #answer(id: unknown, method: string): Promise<void> {
    const reply = method === "ping" ? { jsonrpc: "2.0", id, result: {} } : {
      jsonrpc: "2.0",
      id,
      error: { code: METHOD_NOT_FOUND, message: `powercode does not offer "${method}"` },
    };
    try {
      await this.#transport.send(reply);
    } catch {
      // the connection is going away; its close says why
    }
  }
}
