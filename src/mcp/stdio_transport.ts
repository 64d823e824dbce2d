/**
 * The stdio transport: a program started by the launcher (in the sandbox), one JSON
 * message per line on its stdin and stdout; what it writes to stderr is kept to say why it
 * ended.
 *
 * @module
 */
import type { ServerExit, ServerLauncher, ServerProcess, ServerSpec } from "../tools/mod.ts";
import { MAX_MESSAGE_BYTES, type Transport, type TransportHandlers } from "./transport.ts";

/** Characters of stderr kept to explain an end. */
const STDERR_KEPT = 4096;

/** Messages as lines to and from a program started by `launcher`. */
export class StdioTransport implements Transport {
  #launcher: ServerLauncher;
  #spec: ServerSpec;
  #process: ServerProcess | undefined;
  #stdout = "";
  #stderr = "";
  #handlers: TransportHandlers | undefined;
  #closing = false;

  /** A transport that will start `spec` through `launcher`. */
  constructor(launcher: ServerLauncher, spec: ServerSpec) {
    this.#launcher = launcher;
    this.#spec = spec;
  }

  /** Starts the program. Contract: throws when it cannot be started (or bwrap is missing). */
  async start(handlers: TransportHandlers): Promise<void> {
    this.#handlers = handlers;
    const stdout = new TextDecoder();
    const stderr = new TextDecoder();
    const process = await this.#launcher.launch(this.#spec, {
      onStdout: (chunk) => this.#read(stdout.decode(chunk, { stream: true })),
      onStderr: (chunk) => {
        this.#stderr = (this.#stderr + stderr.decode(chunk, { stream: true })).slice(-STDERR_KEPT);
      },
    });
    this.#process = process;
    void process.exited.then((exit) => handlers.onClose(this.#ended(exit)));
  }

  /** Writes `message` as one line. Contract: throws once the program has ended. */
  async send(message: Record<string, unknown>): Promise<void> {
    if (!this.#process) throw new Error("the server is not running");
    await this.#process.write(`${JSON.stringify(message)}\n`);
  }

  /** Nothing to do: the version travels only inside messages here. */
  agreed(_protocolVersion: string): void {}

  /** Stops the program (stdin closed, then SIGTERM, then SIGKILL). */
  async close(): Promise<void> {
    this.#closing = true;
    await this.#process?.stop();
  }

  #read(text: string): void {
    this.#stdout += text;
    let end: number;
    while ((end = this.#stdout.indexOf("\n")) >= 0) {
      const line = this.#stdout.slice(0, end).trim();
      this.#stdout = this.#stdout.slice(end + 1);
      if (line === "") continue;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        continue; // a log line where only messages belong: not ours to act on
      }
      this.#handlers?.onMessage(message);
    }
    if (this.#stdout.length > MAX_MESSAGE_BYTES) {
      this.#stdout = "";
      this.#handlers?.onClose("it sent a message larger than 16 MB");
      void this.close();
    }
  }

  /** Why the program ended, with its last line of stderr. */
  #ended(exit: ServerExit): string {
    if (this.#closing) return "it was stopped";
    const how = exit.signal !== null
      ? `it was killed by ${exit.signal}`
      : `it exited with code ${exit.code}`;
    const last = this.#stderr.trim().split("\n").at(-1)?.trim() ?? "";
    return last === "" ? how : `${how}: ${last}`;
  }
}
