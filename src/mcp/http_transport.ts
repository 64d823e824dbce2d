/**
 * The streamable HTTP transport: each message is POSTed to the server's URL; a request's
 * answer comes back as JSON or as an event stream; the session id and the protocol
 * version travel in headers; the session is ended with DELETE.
 *
 * @module
 */
import { isObject } from "../core/mod.ts";
import { readEvents } from "./sse.ts";
import { MAX_MESSAGE_BYTES, type Transport, type TransportHandlers } from "./transport.ts";

/** How long closing waits for the server to acknowledge the end of the session. */
const DELETE_TIMEOUT_MS = 2000;

/**
 * Messages as HTTP requests to one URL.
 * Contract: error messages never contain the URL or the headers (they may hold secrets).
 * Limit: the optional GET stream for messages outside a request is not opened.
 */
export class HttpTransport implements Transport {
  #url: string;
  #headers: Record<string, string>;
  #session: string | undefined;
  #version: string | undefined;
  #handlers: TransportHandlers | undefined;
  #closing = new AbortController();

  /** A transport to `url`, sending `headers` (from the config) with every request. */
  constructor(url: string, headers: Record<string, string>) {
    this.#url = url;
    this.#headers = headers;
  }

  /** Nothing is sent before the first message. */
  start(handlers: TransportHandlers): Promise<void> {
    this.#handlers = handlers;
    return Promise.resolve();
  }

  /**
   * POSTs `message`; for a request, its answer is read (in the background for a stream).
   * Contract: throws a one-line reason when the server cannot be reached or refuses.
   */
  async send(message: Record<string, unknown>, signal?: AbortSignal): Promise<void> {
    const response = await this.#fetch("POST", {
      body: JSON.stringify(message),
      contentType: "application/json",
      signal: signal ? AbortSignal.any([signal, this.#closing.signal]) : this.#closing.signal,
    });
    this.#session = response.headers.get("mcp-session-id") ?? this.#session;
    if (response.status === 202) return void await response.body?.cancel();
    if (!response.ok) {
      const text = await readCapped(response.body).catch(() => "");
      throw new Error(statusReason(response.status, text, this.#session !== undefined));
    }
    const id = typeof message.method === "string" ? message.id : undefined;
    if (id === undefined || !response.body) return void await response.body?.cancel();
    const type = (response.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (type === "application/json") return this.#deliver(await readCapped(response.body));
    if (type !== "text/event-stream") {
      await response.body.cancel();
      throw new Error(`the server answered with content type "${type}", not JSON or events`);
    }
    void this.#stream(response.body, id);
  }

  /** Sends the agreed version with every later request (the protocol asks for it). */
  agreed(protocolVersion: string): void {
    this.#version = protocolVersion;
  }

  /** Aborts what is in flight and ends the session on the server (best effort). */
  async close(): Promise<void> {
    this.#closing.abort();
    if (this.#session === undefined) return;
    try {
      const response = await this.#fetch("DELETE", {
        signal: AbortSignal.timeout(DELETE_TIMEOUT_MS),
      });
      await response.body?.cancel();
    } catch {
      // the server is gone or slow: nothing more to end
    }
  }

  async #fetch(
    method: string,
    options: { body?: string; contentType?: string; signal: AbortSignal },
  ): Promise<Response> {
    const headers = new Headers(this.#headers);
    headers.set("accept", "application/json, text/event-stream");
    if (options.contentType) headers.set("content-type", options.contentType);
    if (this.#session !== undefined) headers.set("mcp-session-id", this.#session);
    if (this.#version !== undefined) headers.set("mcp-protocol-version", this.#version);
    let response: Response;
    try {
      response = await fetch(this.#url, {
        method,
        headers,
        signal: options.signal,
        redirect: "manual",
        ...(options.body !== undefined ? { body: options.body } : {}),
      });
    } catch (error) {
      if (options.signal.aborted) throw error;
      throw new Error(`cannot reach the server (${reachFailure(error)})`);
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      throw new Error(
        `the server redirects elsewhere (HTTP ${response.status}); put the address it ` +
          "redirects to in the config",
      );
    }
    return response;
  }

  #deliver(text: string): void {
    try {
      this.#handlers?.onMessage(JSON.parse(text));
    } catch {
      // not JSON: nothing to deliver; a request still waiting times out
    }
  }

  /** Reads a request's event stream; a stream that ends unanswered fails the request. */
  async #stream(body: ReadableStream<Uint8Array>, id: unknown): Promise<void> {
    let answered = false;
    let reason = "the server closed the stream without answering";
    try {
      await readEvents(body, (data) => {
        try {
          const message: unknown = JSON.parse(data);
          if (isObject(message) && message.id === id && message.method === undefined) {
            answered = true;
          }
          this.#handlers?.onMessage(message);
        } catch {
          // an event that is not JSON: skipped
        }
      });
    } catch (error) {
      reason = `the answer broke off (${error instanceof Error ? error.message : String(error)})`;
    }
    if (!answered) {
      this.#handlers?.onMessage({ jsonrpc: "2.0", id, error: { code: -32000, message: reason } });
    }
  }
}

/** A response body as text, at most {@linkcode MAX_MESSAGE_BYTES}. */
async function readCapped(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return "";
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of body) {
    text += decoder.decode(chunk, { stream: true });
    if (text.length > MAX_MESSAGE_BYTES) throw new Error("the answer is larger than 16 MB");
  }
  return text + decoder.decode();
}

function statusReason(status: number, body: string, inSession: boolean): string {
  if (status === 401 || status === 403) {
    return `the server refused the request (HTTP ${status}): check "headers" in the config`;
  }
  if (status === 404 && inSession) {
    return "the server no longer knows this session (HTTP 404)";
  }
  const first = body.trim().split("\n")[0]?.slice(0, 200) ?? "";
  return `the server answered HTTP ${status}${first === "" ? "" : `: ${first}`}`;
}

function reachFailure(error: unknown): string {
  const messages: string[] = [];
  for (let cause = error; cause instanceof Error; cause = cause.cause) messages.push(cause.message);
  const message = messages.join(" ");
  if (/connection refused/i.test(message)) return "connection refused";
  if (/dns|lookup|resolve|name or service/i.test(message)) return "the host name does not resolve";
  if (/certificate|tls/i.test(message)) return "TLS failed";
  return "network error";
}
