/**
 * Starting a sandbox that has a way to the network: bubblewrap gets the seccomp filter on
 * descriptor 3 and one end of a stream socket pair on descriptor 4, which the relay inside
 * uses (`net_relay.ts`), while the other end is served by the {@linkcode NetworkGate} here.
 * `Deno.Command` passes only stdio, so this one spawn goes through `node:child_process`,
 * whose extra `"pipe"` entries are such socket pairs.
 *
 * @module
 */
import type { Duplex, Writable } from "node:stream";
import type { ByteChannel, NetConnection, NetworkGate } from "./net_gate.ts";
import { sandboxFilter } from "./seccomp.ts";

/** How a sandbox reaches the network: the gate outside and the relay program inside. */
export interface SandboxNetwork {
  gate: NetworkGate;
  /** The relay's argv, run inside the sandbox (see {@linkcode relayArgv}). */
  relay: readonly string[];
  /**
   * Told of every connection a stdio server asks for (a command's go to its result instead).
   */
  report?: (connection: NetConnection) => void;
}

/** A started command: what `Sandbox` supervises (a `Deno.ChildProcess` has this shape). */
export interface Supervised {
  stdout: ReadableStream<Uint8Array>;
  stderr: ReadableStream<Uint8Array>;
  status: Promise<{ code: number }>;
  kill(signal: Deno.Signal): void;
}

/**
 * The relay's argv for this program: `deno run` of `net_relay.ts` (readable inside the
 * sandbox, since `/` is), or a compiled powercode's own `--sandbox-relay`.
 */
export function relayArgv(): string[] {
  const exec = Deno.execPath();
  const name = exec.slice(exec.lastIndexOf("/") + 1);
  const module = new URL("./net_relay.ts", import.meta.url);
  if (!/^deno(\.exe)?$/.test(name) || module.protocol !== "file:") return [exec, "--sandbox-relay"];
  return [
    exec,
    ...["run", "--no-config", "--no-lock", "--quiet", "--allow-net=127.0.0.1"],
    decodeURIComponent(module.pathname),
  ];
}

/**
 * Starts bwrap with `args` (whose command starts the relay) and serves its channel through
 * `network.gate`, handing each connection to `onConnection`.
 * Contract: throws `Deno.errors.NotFound` when bwrap is missing.
 */
export async function spawnNetworked(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  network: SandboxNetwork,
  onConnection: (connection: NetConnection) => void,
): Promise<Supervised> {
  const { spawn } = await import("node:child_process");
  const { Readable } = await import("node:stream");
  const child = spawn("bwrap", [...args], {
    env: { ...env },
    stdio: ["ignore", "pipe", "pipe", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once(
      "error",
      (error: NodeJS.ErrnoException) =>
        reject(error.code === "ENOENT" ? new Deno.errors.NotFound(error.message) : error),
    );
  });
  // A bwrap that fails at once closes its end: its status says why.
  const filter = child.stdio[3] as Writable;
  filter.on("error", () => {});
  filter.end(sandboxFilter());
  void network.gate.serve(channelOf(child.stdio[4] as Duplex), onConnection);
  const status = new Promise<{ code: number }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code: code ?? signalCode(signal) }))
  );
  return {
    stdout: Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
    stderr: Readable.toWeb(child.stderr!) as ReadableStream<Uint8Array>,
    status,
    kill: (signal) => {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error("ended");
      child.kill(signal as NodeJS.Signals);
    },
  };
}

/**
 * A node socket as the gate's channel.
 * Contract: a failed write (the sandbox ended: EPIPE) rejects that write's promise and is no
 * uncaught error of the process.
 */
export function channelOf(socket: Duplex): ByteChannel {
  socket.on("error", () => {});
  return {
    readable: socket as AsyncIterable<Uint8Array>,
    write: (bytes) =>
      new Promise((resolve, reject) =>
        socket.write(bytes, (error) => error ? reject(error) : resolve(bytes.length))
      ),
    close: () => socket.destroy(),
  };
}

function signalCode(signal: string | null): number {
  const numbers: Record<string, number> = { SIGKILL: 9, SIGTERM: 15, SIGINT: 2, SIGHUP: 1 };
  return 128 + (numbers[signal ?? ""] ?? 0);
}
