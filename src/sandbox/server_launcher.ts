/**
 * Starts long-lived helper programs (MCP servers) the way bash runs commands: under
 * bubblewrap with the workspace writable, the rest read-only, powercode's files masked,
 * no capabilities and no network unless granted; or directly, only in unsandboxed mode.
 *
 * @module
 */
import type { ChildProcess } from "node:child_process";
import type { Writable } from "node:stream";
import {
  type Bind,
  COMMAND_ENV,
  type HiddenPath,
  RELAY_FD,
  SERVER_CWD,
  serverBwrapArgs,
} from "./bwrap_profile.ts";
import type { Duplex } from "node:stream";
import type { SandboxNetwork } from "./net_spawn.ts";
import { channelOf } from "./net_spawn.ts";
import type { GitControl, IgnoreMounts } from "../workspace/mod.ts";
import { type GitGuard, guardGit, releaseGitGuard } from "./git_guard.ts";
import type { SandboxMode } from "./sandbox.ts";
import { LazySandboxSetup } from "./sandbox_setup.ts";
import { sandboxFilter } from "./seccomp.ts";

/**
 * Variables Deno's `node:child_process` adds to a child's environment: powercode's own
 * `NODE_V8_COVERAGE`, and the count of extra pipes (the filter's).
 */
const ADDED_BY_NODE = ["NODE_V8_COVERAGE", "DENO_EXTRA_STDIO_FDS"];
/** How long a server gets after its stdin closed, and after SIGTERM, before the next step. */
const STOP_GRACE_MS = 500;
/** How long after its exit a server's pipes may stay open before it counts as ended. */
const CLOSE_GRACE_MS = 1000;

/** The refusal of a server when bubblewrap cannot be used. */
export const SERVER_BWRAP_MISSING = "bubblewrap (bwrap) is missing or cannot create a sandbox " +
  "here, so stdio MCP servers are refused; install it (apt-get install bubblewrap) or start " +
  "powercode with --unsandboxed-bash";

/** A program to start and its environment. */
export interface ServerSpec {
  command: string;
  args: readonly string[];
  /** Set on top of PATH, HOME=/tmp, LANG and TERM; nothing else of powercode's reaches it. */
  env: Readonly<Record<string, string>>;
  /** Keep the host's network inside the sandbox. */
  network: boolean;
}

/** Where a started server's output goes. */
export interface ServerOutput {
  onStdout(chunk: Uint8Array): void;
  onStderr(chunk: Uint8Array): void;
}

/** How a server ended: its exit code, or the signal that killed it. */
export interface ServerExit {
  code: number | null;
  signal: string | null;
}

/** A running server: its stdin, its end, and how to stop it. */
export interface ServerProcess {
  /** Writes to the server's stdin; rejects once the server is gone. */
  write(text: string): Promise<void>;
  /** Settles when the server has ended and its pipes are closed. */
  readonly exited: Promise<ServerExit>;
  /**
   * Closes stdin, then SIGTERM, then SIGKILL, each after a grace time; settles when the
   * server has ended. Contract: never throws.
   */
  stop(): Promise<void>;
}

/** How a {@linkcode ServerLauncher} confines servers besides its mode. */
export interface ServerLauncherOptions {
  /**
   * Real paths masked inside the sandbox (the provider file, powercode's state); only with a
   * mode given as such: a {@linkcode LazySandboxSetup} brings its own.
   */
  hidden?: readonly HiddenPath[];
  /** `protected`: every git directory is read-only for the server, as for bash. */
  gitControl?: GitControl;
  /** bwrap arguments computed at each start (`.powercodeignore`, placed as bash's are). */
  mounts?: () => Promise<IgnoreMounts>;
  /** The user's directories bound into the sandbox (`shell` settings). */
  binds?: readonly Bind[];
  /** HTTP(S) to the allowed hosts through powercode's proxy, for servers without `network`. */
  network?: SandboxNetwork;
}

/**
 * Starts servers for the workspace at `root`, in the sandbox mode bash uses.
 * Contract (bwrap): as the sandbox of bash (see `Sandbox`), except that stdin carries the
 * server's messages, the server lives until stopped, starts in `/` (never in a root: what
 * the agent wrote there must not become the server's program) and, with `network`, keeps
 * the host's network. Contract (unsandboxed): the program runs with the user's rights and
 * network, in `/`, with the same cleared environment.
 */
export class ServerLauncher {
  /** The real workspace root. */
  readonly root: string;
  #setup: LazySandboxSetup;
  #gitControl: GitControl;
  #mounts: () => Promise<IgnoreMounts>;
  #binds: readonly Bind[];
  #network: SandboxNetwork | undefined;
  /** One git guard for all running servers (guards of the same .git must not race). */
  #guard: { guard: Promise<GitGuard>; users: number } | undefined;

  /**
   * Creates a launcher for the workspace at `root` (a real absolute path), in `mode`, or in
   * the mode a lazy setup (bash's) finds at the first launch.
   */
  constructor(
    root: string,
    mode: SandboxMode | LazySandboxSetup,
    options: ServerLauncherOptions = {},
  ) {
    this.root = root;
    this.#setup = typeof mode === "string"
      ? LazySandboxSetup.known({ mode, hidden: options.hidden ?? [] })
      : mode;
    this.#gitControl = options.gitControl ?? "protected";
    this.#mounts = options.mounts ?? (() => Promise.resolve({ pins: [], masks: [] }));
    this.#binds = options.binds ?? [];
    this.#network = options.network;
  }

  /** The mode as far as known: the one found, else the one expected before the probe. */
  get mode(): SandboxMode {
    return this.#setup.mode;
  }

  /**
   * Starts `spec`, sending its output to `output`.
   * Contract: throws {@linkcode SERVER_BWRAP_MISSING} when the mode is `unavailable`, and
   * an Error when the program cannot be started at all, or when the probe of a lazy setup
   * (run by the first launch or command) failed.
   */
  async launch(spec: ServerSpec, output: ServerOutput): Promise<ServerProcess> {
    const { mode, hidden } = await this.#setup.resolve();
    if (mode === "unavailable") throw new Error(SERVER_BWRAP_MISSING);
    const { spawn } = await import("node:child_process");
    const env = { ...COMMAND_ENV, ...spec.env };
    const unset = ADDED_BY_NODE.filter((name) => !Object.hasOwn(spec.env, name));
    if (mode === "unsandboxed") {
      const entry = `${unset.map((name) => `unset ${name}; `).join("")}exec "$@"`;
      const child = spawn("bash", ["-c", entry, "bash", spec.command, ...spec.args], {
        cwd: SERVER_CWD,
        env,
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
      });
      return await started(child, output, undefined);
    }
    const guarded = this.#gitControl === "protected";
    const guard = guarded ? await this.#acquireGuard() : undefined;
    const { pins, masks } = await this.#mounts();
    const network = spec.network ? undefined : this.#network;
    const profile = {
      hidden,
      extraMounts: [...pins, ...guard?.args ?? [], ...masks],
      network: spec.network,
      unset,
      realRoot: await Deno.realPath(this.root).catch(() => this.root),
      binds: this.#binds,
      ...(network ? { relay: network.relay } : {}),
    };
    const args = serverBwrapArgs(this.root, profile, [spec.command, ...spec.args]);
    const proxyEnv = network
      ? { NO_PROXY: network.gate.noProxy(), no_proxy: network.gate.noProxy() }
      : {};
    const child = spawn("bwrap", args, {
      env: { ...env, ...proxyEnv },
      stdio: ["pipe", "pipe", "pipe", "pipe", ...(network ? ["pipe" as const] : [])],
    });
    const filter = child.stdio[3] as Writable | null | undefined;
    // A server that fails at once closes its end: its exit says why, not an EPIPE.
    filter?.on("error", () => {});
    filter?.end(sandboxFilter());
    if (network) {
      const report = network.report ?? (() => {});
      void network.gate.serve(channelOf(child.stdio[RELAY_FD] as Duplex), report);
    }
    return await started(child, output, guarded ? () => this.#releaseGuard() : undefined);
  }

  async #acquireGuard(): Promise<GitGuard> {
    this.#guard ??= { guard: guardGit(this.root), users: 0 };
    this.#guard.users++;
    return await this.#guard.guard;
  }

  /** Removes the guard's placeholders once no server uses it. Contract: never throws. */
  async #releaseGuard(): Promise<void> {
    const current = this.#guard;
    if (!current || --current.users > 0) return;
    this.#guard = undefined;
    const guard = await current.guard.catch(() => undefined);
    if (guard !== undefined) await releaseGitGuard(guard);
  }
}

/** Waits until `child` has started (or failed to), then wraps it. */
async function started(
  child: ChildProcess,
  output: ServerOutput,
  release: (() => Promise<void>) | undefined,
): Promise<ServerProcess> {
  try {
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    });
  } catch (error) {
    await release?.();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot start the server: ${reason}`);
  }
  child.stdout?.on("data", (chunk: Uint8Array) => output.onStdout(chunk));
  child.stderr?.on("data", (chunk: Uint8Array) => output.onStderr(chunk));
  // A write to a server that has gone fails its promise; the stream's own error is that.
  child.stdin?.on("error", () => {});
  const exited = ended(child).finally(() => release?.());
  return {
    write: (text) =>
      new Promise((resolve, reject) => {
        const stdin = child.stdin;
        if (!stdin || stdin.destroyed || child.exitCode !== null) {
          return reject(new Error("the server has ended"));
        }
        stdin.write(text, (error) => error ? reject(error) : resolve());
      }),
    exited,
    stop: () => stop(child, exited),
  };
}

/** Settles when `child` has exited and its pipes are closed (or a grace time after its exit). */
function ended(child: ChildProcess): Promise<ServerExit> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      resolve({ code, signal });
    };
    child.once("close", done);
    child.once("exit", (code, signal) => {
      timer = setTimeout(() => done(code, signal), CLOSE_GRACE_MS);
    });
  });
}

async function stop(child: ChildProcess, exited: Promise<ServerExit>): Promise<void> {
  child.stdin?.end();
  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    if (await settlesWithin(exited, STOP_GRACE_MS)) return;
    try {
      child.kill(signal);
    } catch {
      // ended meanwhile
    }
  }
  await exited;
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}
