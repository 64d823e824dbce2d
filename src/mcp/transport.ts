/**
 * What carries JSON-RPC messages between powercode and one MCP server: a sandboxed
 * program's stdin and stdout, or streamable HTTP.
 *
 * @module
 */

/** Where a transport delivers what it receives. */
export interface TransportHandlers {
  /** One parsed JSON value from the server (a message, or a batch of them). */
  onMessage(message: unknown): void;
  /** The connection is gone for good (the program ended, ...); called at most once. */
  onClose(reason: string): void;
}

/** A connection to one server. */
export interface Transport {
  /**
   * Opens the connection; from then on messages reach `handlers`.
   * Contract: throws when the server cannot be reached or started.
   */
  start(handlers: TransportHandlers): Promise<void>;
  /**
   * Sends one message; `signal` aborts what is still being received for it (HTTP).
   * Contract: throws when the message cannot be delivered.
   */
  send(message: Record<string, unknown>, signal?: AbortSignal): Promise<void>;
  /** Tells the transport the protocol version both sides agreed on (HTTP sends it along). */
  agreed(protocolVersion: string): void;
  /** Ends the connection and whatever runs for it. Contract: never throws. */
  close(): Promise<void>;
}

/** The longest message accepted from a server: 16 MiB. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
