/**
 * Runs shell commands for the `bash` tool: under bubblewrap, or (only when the
 * user asked for it) directly, and in both cases as the manager of the whole
 * process tree: capture, timeout and abort.
 *
 * @module
 */
import { TailBuffer, type Truncation } from "../core/mod.ts";
import {
  type Bind,
  bwrapArgs,
  CLOSE_INHERITED_FDS,
  COMMAND_ENV,
  type HiddenPath,
  READY_BYTE,
  spawnBwrap,
  type WorkspaceMode,
} from "./bwrap_profile.ts";
import { type NetConnection, NetworkGate } from "./net_gate.ts";
import { relayArgv, type SandboxNetwork, spawnNetworked, type Supervised } from "./net_spawn.ts";
import type { HostPattern } from "../core/mod.ts";
import { resolveGrantDir } from "./grant_dirs.ts";
import type { GitControl, IgnoreMounts } from "../workspace/mod.ts";
import { checkGitAfter, type GitGuard, guardGit, releaseGitGuard } from "./git_guard.ts";
import { ScanCache } from "./git_scan.ts";
import { LazySandboxSetup, type SandboxMode } from "./sandbox_setup.ts";

export { type HiddenPath, probeBwrap, type WorkspaceMode } from "./bwrap_profile.ts";
export type { SandboxMode } from "./sandbox_setup.ts";

/** How long a process gets to end after SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 500;
/** How long the pipes may stay open after the command ended (escaped processes). */
const DRAIN_GRACE_MS = 1000;
/** How long a stop waits for bwrap to finish setting up the sandbox before it kills anyway. */
const SETUP_GRACE_MS = 10_000;

/**
 * Unsandboxed wrapper: runs the command as a job in its own process group
 * (`set -m`), kills that group on SIGTERM/SIGHUP and after the command ends,
 * outlives a terminal's SIGINT (powercode decides about interruptions), and
 * keeps its own job messages out of the output. Like the sandbox, it passes
 * only stdio to the command.
 */
const GROUP_WRAPPER = `${CLOSE_INHERITED_FDS}
exec 3>&2 2>/dev/null
set -m
bash -c "$1" 2>&3 3>&- &
pid=$!
set +m
trap 'kill -KILL -- -$pid; exit 143' TERM HUP
trap : INT
while :; do
  wait $pid
  status=$?
  if [ $status -gt 128 ] && kill -0 $pid; then continue; fi
  break
done
kill -KILL -- -$pid
exit $status`;

/** The refusal every bash call gets when bubblewrap cannot be used. */
export const BWRAP_MISSING_MESSAGE = "Cannot run bash: bubblewrap (bwrap) is missing or cannot " +
  "create a sandbox here; install it (apt-get install bubblewrap) or start powercode with " +
  "--unsandboxed-bash";

/** The refusal of a read-only run without bubblewrap, which alone can enforce it. */
export const READ_ONLY_UNSANDBOXED_MESSAGE = "Cannot run bash: the workspace is read-only now " +
  "and only the sandbox can keep commands from changing it (powercode runs with " +
  "--unsandboxed-bash)";

/** Limits of one run. */
export interface RunOptions {
  /** The whole tree is killed after this many milliseconds. */
  timeoutMs: number;
  /** Aborting kills the whole tree. */
  signal: AbortSignal;
  /** Receives stdout and stderr as they arrive (for the terminal); the result is unaffected. */
  onOutput?: (text: string) => void;
  /** More than the settings give, for this run only (see {@linkcode RunGrant}). */
  grant?: RunGrant;
}

/**
 * What one run gets beyond the sandbox's settings: hosts and directories the user granted
 * (`need_hosts`, `need_dirs` of bash), or a preview's closed network.
 */
export interface RunGrant {
  /** Hosts reachable through powercode's proxy besides `network.allow`. */
  hosts?: readonly HostPattern[];
  /** Real directories outside the roots bound read-write at their own paths. */
  dirs?: readonly string[];
  /**
   * Every connection is refused and recorded (a preview), `hosts` and the settings' too;
   * commands send through the proxy what they would send without it.
   */
  offline?: boolean;
  /** Told of each connection the run asks for. */
  onConnection?: (connection: NetConnection) => void;
}

/** How a run ended. */
export type RunEnd =
  | { kind: "exit"; code: number }
  | { kind: "timeout"; timeoutMs: number }
  | { kind: "aborted" };

/** stdout and stderr interleaved, cut to the tail, and how the run ended. */
export interface RunResult {
  output: Truncation;
  end: RunEnd;
  /** What the git rule changed after the command, one line each (see `checkGitAfter`). */
  gitNotes?: string[];
  /** The connections the command asked powercode's proxy for, in order (with a network). */
  connections?: NetConnection[];
}

/** Something that runs a shell command in the workspace; the bash tool's only dependency. */
export interface CommandRunner {
  /** The mode as far as known: the one the probe found, else the one expected before it ran. */
  readonly mode: SandboxMode;
  /** Whether commands may write git's directories (always, unless bwrap; see `git_control.ts`). */
  readonly gitControl: GitControl;
  /** Whether commands may change the workspace (`rw`) or only read it (`ro`). */
  readonly workspace: WorkspaceMode;
  /** The hosts commands may reach through powercode's proxy, as written; none: no network. */
  readonly hosts?: readonly string[];
  /**
   * Runs `bash -c command`. Contract: throws only when the mode is `unavailable`, when the
   * workspace is read-only and the mode is `unsandboxed`, or when the sandbox's probe failed.
   */
  run(command: string, options: RunOptions): Promise<RunResult>;
}

/** How a {@linkcode Sandbox} confines commands besides its mode. */
export interface SandboxOptions {
  /**
   * Real paths outside the workspace that commands must not read under bwrap
   * (provider.json, the sessions directory): a directory is covered by an
   * empty read-only tmpfs, a file by /dev/null. Only with a mode given as such: a
   * {@linkcode LazySandboxSetup} brings its own.
   */
  hidden?: readonly HiddenPath[];
  /**
   * `writable`: commands may write every git directory of the workspace and create new ones
   * (default `protected`: read-only, and new ones renamed after the run; see `guardGit`).
   */
  gitControl?: GitControl;
  /** `ro`: the workspace is bound read-only (default `rw`); needs bubblewrap. */
  workspace?: WorkspaceMode;
  /** Further roots (`--add-dir`), bound and guarded like the first. */
  moreRoots?: readonly string[];
  /**
   * bwrap arguments computed at each command's start (`.powercodeignore`, see
   * `ignoreMounts`): the pins right after the roots' binds, the masks after git's guard.
   */
  mounts?: () => Promise<IgnoreMounts>;
  /** The user's directories bound into the sandbox (`shell` settings). */
  binds?: readonly Bind[];
  /** The whole environment of a command (default {@linkcode COMMAND_ENV}). */
  env?: Readonly<Record<string, string>>;
  /** HTTP and HTTPS to the allowed hosts through powercode's proxy (default: no network). */
  network?: SandboxNetwork;
}

/**
 * Runs `bash -c` in the workspace, under bubblewrap or, in `unsandboxed` mode, directly.
 *
 * Contract (bwrap): read-only `/` and `/proc/sys`, workspace writable unless `ro`, private
 * `/tmp`, no network, no Unix-socket connections (no `socket(AF_UNIX)`), own
 * user/pid namespaces and no capabilities even as root, masks that cannot be
 * unmounted, every git directory read-only and new ones renamed after the run
 * unless allowed (see `guardGit`, `checkGitAfter`); killing
 * bwrap kills every process of the run, including ones that trap SIGTERM or
 * detach. Processes never outlive the run.
 * Contract (both): cleared environment ({@linkcode COMMAND_ENV}), stdin is
 * `/dev/null`, no file descriptor beyond stdio, output keeps the last 2000
 * lines / 50 KB while the pipes are drained.
 *
 * Limit (unsandboxed): the command runs with the user's full rights. The tree
 * is killed through its process group; a process that leaves the group
 * (`setsid`, a daemon) survives, and its open pipes are abandoned after
 * {@linkcode DRAIN_GRACE_MS}.
 */
export class Sandbox implements CommandRunner {
  /** The real workspace root, the command's working directory. */
  readonly root: string;
  /** How the next runs see the workspace; plan mode switches it between runs. */
  workspace: WorkspaceMode;
  #setup: LazySandboxSetup;
  #moreRoots: readonly string[];
  #mounts: () => Promise<IgnoreMounts>;
  #binds: readonly Bind[];
  #gitControl: GitControl;
  #network: SandboxNetwork | undefined;
  /** The whole environment of a command. */
  readonly env: Readonly<Record<string, string>>;
  /** The git guard's directory listings of each root, kept from run to run. */
  #gitScans = new Map<string, ScanCache>();

  /**
   * Creates a runner for the workspace at `root` (a real absolute path), in `mode`, or in the
   * mode a lazy setup finds at the first command (or {@linkcode ready}).
   */
  constructor(root: string, mode: SandboxMode | LazySandboxSetup, options: SandboxOptions = {}) {
    this.root = root;
    this.#setup = typeof mode === "string"
      ? LazySandboxSetup.known({ mode, hidden: options.hidden ?? [] })
      : mode;
    this.#moreRoots = options.moreRoots ?? [];
    this.#mounts = options.mounts ?? (() => Promise.resolve({ pins: [], masks: [] }));
    this.#binds = options.binds ?? [];
    this.env = options.env ?? COMMAND_ENV;
    this.#network = options.network;
    this.#gitControl = options.gitControl ?? "protected";
    this.workspace = options.workspace ?? "rw";
  }

  /** The mode as far as known: the one found, else the one expected before the probe. */
  get mode(): SandboxMode {
    return this.#setup.mode;
  }

  /** Whether commands may write git's directories (always, unless bwrap). */
  get gitControl(): GitControl {
    return this.mode === "bwrap" ? this.#gitControl : "writable";
  }

  /** The way to the allowed hosts, when there is one. */
  get network(): SandboxNetwork | undefined {
    return this.mode === "bwrap" ? this.#network : undefined;
  }

  /** The hosts commands may reach through powercode's proxy, as written. */
  get hosts(): readonly string[] {
    return this.network?.gate.patterns.map((pattern) => pattern.text) ?? [];
  }

  /**
   * The mode commands run in, probing bubblewrap on the first call of the process's sandbox.
   * Contract: throws when the probe of the hidden paths failed.
   */
  async ready(): Promise<SandboxMode> {
    return (await this.#setup.resolve()).mode;
  }

  /**
   * Runs `bash -c command` and returns its captured output and end.
   * Contract: on timeout or abort the whole tree is killed (SIGTERM, then
   * SIGKILL after 500 ms) and the result says so; throws
   * {@linkcode BWRAP_MISSING_MESSAGE} when the mode is `unavailable` and
   * {@linkcode READ_ONLY_UNSANDBOXED_MESSAGE} when a read-only workspace has no sandbox; the
   * first run (or {@linkcode ready}) of a lazy setup probes bubblewrap, and throws what a
   * failed probe of the hidden paths threw.
   */
  async run(command: string, options: RunOptions): Promise<RunResult> {
    await this.ready();
    if (this.mode === "unavailable") throw new Error(BWRAP_MISSING_MESSAGE);
    if (this.mode === "unsandboxed" && this.workspace === "ro") {
      throw new Error(READ_ONLY_UNSANDBOXED_MESSAGE);
    }
    if (options.signal.aborted) {
      return { output: new TailBuffer().finish(), end: { kind: "aborted" } };
    }
    // A read-only workspace needs no guard: nothing in it, .git included, can change.
    const guarded = this.gitControl === "protected" && this.workspace === "rw";
    const guards: GitGuard[] = [];
    const connections: NetConnection[] = [];
    try {
      if (guarded) {
        for (const root of this.#roots()) {
          guards.push(await guardGit(root, { cache: this.#scanCache(root) }));
        }
      }
      // Interrupted while the guards were made: nothing is started.
      if (options.signal.aborted) {
        return { output: new TailBuffer().finish(), end: { kind: "aborted" } };
      }
      const onConnection = (connection: NetConnection) => {
        connections.push(connection);
        options.grant?.onConnection?.(connection);
        if (!connection.allowed) options.onOutput?.(`${refusalLine(connection)}\n`);
      };
      const network = this.#networkFor(options.grant);
      const networked = network.network !== undefined;
      const result = await supervise(
        await this.#spawn(command, guards.flatMap((guard) => guard.args), onConnection, {
          ...network,
          dirs: options.grant?.dirs ?? [],
        }),
        { ...options, announcesReady: this.mode === "bwrap" },
      );
      const gitNotes = guards.flatMap((guard) => checkGitAfter(guard));
      return {
        ...result,
        ...(gitNotes.length > 0 ? { gitNotes } : {}),
        ...(networked ? { connections } : {}),
      };
    } finally {
      for (const guard of guards) await releaseGitGuard(guard);
    }
  }

  /**
   * Starts `bash -c command` as {@linkcode run} would, without waiting for it: for a
   * background job, whose caller reads the child's output and ends it. `release` must be
   * called once the child has ended: it checks and releases the git guard and returns what
   * the git rule renamed.
   * Contract: the same confinement and refusals as {@linkcode run}.
   */
  async start(
    command: string,
    onConnection: (connection: NetConnection) => void = () => {},
  ): Promise<{ child: Supervised; release: () => Promise<string[]>; announcesReady?: boolean }> {
    await this.ready();
    if (this.mode === "unavailable") throw new Error(BWRAP_MISSING_MESSAGE);
    if (this.mode === "unsandboxed" && this.workspace === "ro") {
      throw new Error(READ_ONLY_UNSANDBOXED_MESSAGE);
    }
    const guards: GitGuard[] = [];
    const release = async () => {
      const notes = guards.flatMap((guard) => checkGitAfter(guard));
      for (const guard of guards) await releaseGitGuard(guard);
      return notes;
    };
    try {
      if (this.gitControl === "protected" && this.workspace === "rw") {
        for (const root of this.#roots()) {
          guards.push(await guardGit(root, { cache: this.#scanCache(root) }));
        }
      }
      const child = await this.#spawn(
        command,
        guards.flatMap((guard) => guard.args),
        onConnection,
        { ...(this.network ? { network: this.network } : {}), dirs: [] },
      );
      return { child, release, announcesReady: this.mode === "bwrap" };
    } catch (error) {
      await release();
      throw error;
    }
  }

  /**
   * The bwrap arguments of a command started now, leaving out git's guard (which makes
   * placeholders on disk); undefined unless the mode is `bwrap`. For `--scope`.
   */
  async preview(command: string): Promise<string[] | undefined> {
    if (await this.ready() !== "bwrap") return undefined;
    return await this.#profile(command, [], {
      ...(this.network ? { network: this.network } : {}),
      dirs: [],
    });
  }

  /**
   * The real path of `dir` if a command may be granted it for writing (`need_dirs`), or why
   * not (see `resolveGrantDir`); every directory is refused without bubblewrap.
   */
  async grantDir(dir: string): Promise<{ real: string } | { problem: string }> {
    const { mode, hidden } = await this.#setup.resolve();
    if (mode !== "bwrap") return { problem: "only the bubblewrap sandbox can bind it" };
    if (this.workspace === "ro") return { problem: "nothing is writable in plan mode" };
    const real = (path: string) => Deno.realPath(path).catch(() => path);
    return await resolveGrantDir(dir, {
      roots: await Promise.all(this.#roots().map(real)),
      writable: this.#binds.filter((bind) => bind.writable).map((bind) => bind.path),
      hidden,
    });
  }

  /**
   * The network of a run: the settings', widened by `grant.hosts`, or closed by `offline`
   * (which sends through the proxy what the open run would, to record it).
   */
  #networkFor(grant: RunGrant | undefined): Pick<RunShape, "network" | "noProxy"> {
    const settings = this.network ? { network: this.network } : {};
    if (this.mode !== "bwrap" || grant === undefined) return settings;
    const relay = this.network?.relay ?? relayArgv();
    const hosts = grant.hosts ?? [];
    if (!grant.offline && hosts.length === 0) return settings;
    const open = new NetworkGate([...this.network?.gate.patterns ?? [], ...hosts]);
    return {
      network: { gate: grant.offline ? new NetworkGate([]) : open, relay },
      noProxy: open.noProxy(),
    };
  }

  /** The environment of a run: the settings', with the run's own `NO_PROXY`. */
  #envOf(run: RunShape): Readonly<Record<string, string>> {
    if (run.noProxy === undefined) return this.env;
    return { ...this.env, NO_PROXY: run.noProxy, no_proxy: run.noProxy };
  }

  #roots(): string[] {
    return [this.root, ...this.#moreRoots];
  }

  #scanCache(root: string): ScanCache {
    const cache = this.#gitScans.get(root) ?? new ScanCache();
    this.#gitScans.set(root, cache);
    return cache;
  }

  async #profile(command: string, guardArgs: readonly string[], run: RunShape): Promise<string[]> {
    const { pins, masks } = await this.#mounts();
    // A read-only workspace needs no pins (nothing in it can be renamed), and a pin is writable.
    const pinned = this.workspace === "rw" ? pins : [];
    const profile = {
      hidden: (await this.#setup.resolve()).hidden,
      moreRoots: this.#moreRoots,
      extraMounts: [...pinned, ...guardArgs, ...masks],
      workspace: this.workspace,
      realRoot: await Deno.realPath(this.root).catch(() => this.root),
      binds: [...this.#binds, ...run.dirs.map((path) => ({ path, writable: true }))],
      ...(run.network ? { relay: run.network.relay } : {}),
    };
    return bwrapArgs(this.root, profile, command);
  }

  async #spawn(
    command: string,
    guardArgs: readonly string[],
    onConnection: (connection: NetConnection) => void,
    run: RunShape,
  ): Promise<Supervised> {
    try {
      if (this.mode === "unsandboxed") {
        return new Deno.Command("bash", {
          args: ["-c", GROUP_WRAPPER, "bash", command],
          cwd: this.root,
          clearEnv: true,
          env: { ...this.env },
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }).spawn();
      }
      const args = await this.#profile(command, guardArgs, run);
      if (run.network) {
        return await spawnNetworked(args, this.#envOf(run), run.network, onConnection);
      }
      return await spawnBwrap(args, { stdout: "piped", stderr: "piped", env: this.#envOf(run) });
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      throw new Error(
        this.mode === "bwrap" ? BWRAP_MISSING_MESSAGE : "Cannot run bash: bash is not installed",
      );
    }
  }
}

/** The network and extra writable directories of one run. */
interface RunShape {
  network?: SandboxNetwork;
  dirs: readonly string[];
  /** The names commands reach directly, when the run's network is not the settings'. */
  noProxy?: string;
}

/** The line on screen for a connection the proxy refused. */
export function refusalLine({ host, port }: NetConnection): string {
  return `powercode: refused the connection to "${host}:${port}": not in network.allow`;
}

/**
 * Captures the output of `child` until it ends, killing its tree on timeout or abort. With
 * `announcesReady` (a bwrap sandbox) the first byte of stdout is {@linkcode READY_BYTE}, left
 * out of the output, and a stop waits for it: bwrap binds the sandbox's first process to its
 * own life only at the end of the setup, so a bwrap killed before would leave the sandbox
 * running on its own.
 */
async function supervise(
  child: Supervised,
  options: RunOptions & { announcesReady: boolean },
): Promise<RunResult> {
  const capture = new TailBuffer();
  const ready = Promise.withResolvers<void>();
  if (!options.announcesReady) ready.resolve();
  void child.status.then(() => ready.resolve());
  const [out, err] = [child.stdout.getReader(), child.stderr.getReader()];
  const readers = [out, err];
  const drained = Promise.all([
    pump(out, capture, options.onOutput, options.announcesReady ? ready.resolve : undefined),
    pump(err, capture, options.onOutput),
  ]);
  let end: RunEnd | undefined;
  let stopping = false;
  const stop = (reason: RunEnd) => {
    end ??= reason;
    if (stopping) return;
    stopping = true;
    void settlesWithin(ready.promise, SETUP_GRACE_MS).then(() => terminate(child));
  };
  const timer = setTimeout(
    () => stop({ kind: "timeout", timeoutMs: options.timeoutMs }),
    options.timeoutMs,
  );
  const onAbort = () => stop({ kind: "aborted" });
  options.signal.addEventListener("abort", onAbort, { once: true });
  if (options.signal.aborted) onAbort();
  try {
    const status = await child.status;
    if (!(await settlesWithin(drained, DRAIN_GRACE_MS))) {
      await Promise.all(readers.map((reader) => reader.cancel().catch(() => {})));
    }
    return { output: capture.finish(), end: end ?? { kind: "exit", code: status.code } };
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener("abort", onAbort);
  }
}

/** SIGTERM, then SIGKILL if the process has not ended within the grace time. */
export async function terminate(child: Supervised): Promise<void> {
  try {
    child.kill("SIGTERM");
  } catch {
    return; // already ended
  }
  if (await settlesWithin(child.status, KILL_GRACE_MS)) return;
  try {
    child.kill("SIGKILL");
  } catch {
    // ended meanwhile
  }
}

/** Whether `promise` settles within `ms`; never leaves a timer behind. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true, () => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads `reader` into `capture`; with `onReady`, its first byte is the ready byte, left out. */
async function pump(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  capture: TailBuffer,
  onOutput: ((text: string) => void) | undefined,
  onReady?: () => void,
): Promise<void> {
  const decoder = new TextDecoder();
  const push = (text: string) => {
    capture.push(text);
    if (text !== "") onOutput?.(text);
  };
  let awaitingReady = onReady !== undefined;
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      let bytes = chunk.value;
      if (awaitingReady && bytes.length > 0) {
        awaitingReady = false;
        if (bytes[0] === READY_BYTE) bytes = bytes.subarray(1);
        onReady?.();
      }
      push(decoder.decode(bytes, { stream: true }));
    }
  } catch {
    // cancelled after the grace time: keep what arrived
  }
  push(decoder.decode());
}
