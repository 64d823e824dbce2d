/**
 * The bubblewrap profile of a sandboxed command: namespaces, capabilities,
 * mounts and the entry script, and the startup probe that checks it works.
 *
 * @module
 */
import { sandboxFilter } from "./seccomp.ts";

/** The whole environment a command sees: nothing of powercode's own (API keys). */
export const COMMAND_ENV = {
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: "/tmp",
  LANG: "C.UTF-8",
  TERM: "dumb",
};

/**
 * Shell lines that close every inherited file descriptor above 2, whatever
 * powercode's own parent left open without close-on-exec.
 */
export const CLOSE_INHERITED_FDS = `for fd in /proc/self/fd/*; do
  fd=\${fd##*/}
  if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi
done`;

/**
 * The byte a command's sandbox writes first to stdout, once bwrap has set it up (and the
 * sandbox's first process is bound to die with bwrap): not part of the command's output.
 */
export const READY_BYTE = 0x06;

/**
 * The first process in the sandbox: bwrap read the seccomp filter from
 * stdin and closed it, so stdin becomes /dev/null again; then only stdio is
 * left open, {@linkcode READY_BYTE} says the sandbox is up, and the command runs as
 * `bash -c "$1"`.
 */
const SANDBOX_ENTRY = `exec </dev/null
${CLOSE_INHERITED_FDS}
printf '\\00${READY_BYTE.toString(8)}'
exec bash -c "$1"`;

/**
 * The entry of a sandboxed server: stdin stays (it carries the server's messages), only
 * stdio is left open (bwrap read the seccomp filter from fd 3), then the program runs.
 */
const SERVER_ENTRY = `${CLOSE_INHERITED_FDS}
exec "$@"`;

/** The descriptor a networked sandbox gets its relay's socket on (the filter comes on 3). */
export const RELAY_FD = 4;

/**
 * Shell lines that start the relay (its argv in `$2`…, `$1` of them) on the socket pair at
 * {@linkcode RELAY_FD}, wait until it listens on the namespace's loopback, point the proxy
 * variables at it, then close every descriptor above 2 and drop the relay's arguments.
 */
const RELAY_START = `for fd in /proc/self/fd/*; do
  fd=\${fd##*/}
  if [ "$fd" -gt 2 ] && [ "$fd" != ${RELAY_FD} ]; then eval "exec $fd>&-"; fi
done
exec 5< <(cd / && DENO_DIR=/tmp/.powercode-relay DENO_NO_UPDATE_CHECK=1 NO_COLOR=1 \\
  exec "\${@:2:$1}" 2>&1 <&${RELAY_FD} >&${RELAY_FD} ${RELAY_FD}>&-)
if read -r -t 20 -u 5 port && [[ $port =~ ^[0-9]+$ ]]; then
  proxy=http://127.0.0.1:$port
  export HTTP_PROXY=$proxy HTTPS_PROXY=$proxy http_proxy=$proxy https_proxy=$proxy
else
  echo "powercode: the network relay did not start, so this command has no network: $port" >&2
fi
exec 5<&- ${RELAY_FD}>&-
shift $(($1 + 1))`;

/** {@linkcode SANDBOX_ENTRY} with the relay started first. */
const NETWORK_ENTRY = `exec </dev/null
printf '\\00${READY_BYTE.toString(8)}'
${RELAY_START}
exec bash -c "$1"`;

/** {@linkcode SERVER_ENTRY} with the relay started first. */
const NETWORK_SERVER_ENTRY = `${RELAY_START}
exec "$@"`;

/** A directory of the user's bound into the sandbox at its own path (`shell` settings). */
export interface Bind {
  path: string;
  writable: boolean;
}

/**
 * Namespaces and privileges: a user namespace also when powercode runs as
 * root (so no capability of the host's remains, not even in the bounding
 * set), every capability dropped, no network unless `network`, and the seccomp filter read
 * from `seccompFd`.
 */
function confinement(network: boolean, seccompFd: number): string[] {
  return [
    ...["--unshare-user", "--unshare-pid", ...(network ? [] : ["--unshare-net"])],
    ...["--unshare-ipc", "--unshare-uts", "--cap-drop", "ALL", "--seccomp", String(seccompFd)],
  ];
}

/** The confinement of a command, its filter read from stdin (see {@linkcode spawnBwrap}). */
export const CONFINEMENT: readonly string[] = confinement(false, 0);

/** A path the sandboxed command must not see, and whether it is a directory. */
export interface HiddenPath {
  path: string;
  isDirectory: boolean;
}

/** How commands see the workspace: read-write, or read-only (nothing in it can change). */
export type WorkspaceMode = "rw" | "ro";

/** What a sandboxed run mounts besides the system. */
export interface ProfileOptions {
  /**
   * Real paths covered by a read-only empty tmpfs (directories) or /dev/null (files); one
   * inside a root after every bind, so that no root's bind uncovers it. A directory that
   * holds a root gets a tmpfs before the roots' binds that stays writable (a read-only one
   * would make the roots in it read-only too): only the root shows in it, nothing written
   * there lasts.
   */
  hidden: readonly HiddenPath[];
  /** Mounts applied after the workspace's bind (see `guardGit`). */
  extraMounts: readonly string[];
  /** How the workspace is bound (default `rw`). */
  workspace?: WorkspaceMode;
  /** Further roots, bound like the workspace, before `extraMounts`. */
  moreRoots?: readonly string[];
  /** The workspace's real path when `root` is a symbolic link to it (default: `root`). */
  realRoot?: string;
  /** The user's directories (`shell.path`, `readOnly`, `writable`), bound before the masks. */
  binds?: readonly Bind[];
  /**
   * The relay's argv: the command starts it first and reaches powercode's proxy through it
   * on the socket pair at {@linkcode RELAY_FD} (the network namespace stays the sandbox's own).
   */
  relay?: readonly string[];
}

/**
 * bwrap arguments that run `command` in the workspace at `root`; the filter
 * from {@linkcode sandboxFilter} must be written to bwrap's stdin.
 *
 * Contract: `/` read-only, `/proc/sys` read-only, `/proc/keys` empty (the names of the
 * keys in powercode's keyrings), a private `/tmp`, the hidden paths masked (also inside a
 * root), the workspace and `moreRoots` read-write (read-only when `ro`), no network, own
 * pid/ipc/uts/user namespaces, no capabilities, `no_new_privs` and no set-id modes (see
 * `sandboxFilter`), a new session, killed with its parent.
 */
export function bwrapArgs(root: string, options: ProfileOptions, command: string): string[] {
  const { relay } = options;
  return [
    ...(relay ? confinement(false, 3) : CONFINEMENT),
    ...mounts(root, options),
    ...(relay
      ? ["--", "bash", "-c", NETWORK_ENTRY, "bash", String(relay.length), ...relay, command]
      : ["--", "bash", "-c", SANDBOX_ENTRY, "bash", command]),
  ];
}

/** What a sandboxed server gets besides the mounts of a command. */
export interface ServerProfileOptions extends ProfileOptions {
  /** Keep the host's network (`"network": true`); default: none. */
  network: boolean;
  /** Environment variables bwrap must not pass on (set in its own environment by Node). */
  unset: readonly string[];
}

/**
 * bwrap arguments that run a long-lived server `argv` for the workspace at `root`, talking
 * through stdin and stdout; the filter from {@linkcode sandboxFilter} must be written to
 * bwrap's fd 3 (stdin is the server's).
 *
 * Contract: the mounts, namespaces and capabilities of {@linkcode bwrapArgs}; no network
 * unless `network`; the server's environment is bwrap's own, less `unset`; its working
 * directory is {@linkcode SERVER_CWD}, outside every root.
 */
export function serverBwrapArgs(
  root: string,
  options: ServerProfileOptions,
  argv: readonly string[],
): string[] {
  const relay = options.network ? undefined : options.relay;
  return [
    ...confinement(options.network, 3),
    ...mounts(root, options, SERVER_CWD),
    ...options.unset.flatMap((name) => ["--unsetenv", name]),
    ...(relay
      ? ["--", "bash", "-c", NETWORK_SERVER_ENTRY, "bash", String(relay.length), ...relay, ...argv]
      : ["--", "bash", "-c", SERVER_ENTRY, "bash", ...argv]),
  ];
}

/**
 * A server's working directory: `/`, read-only and outside every root, so what the agent
 * wrote in the workspace is never found through it (`python3 -m`, `npx`, a relative script
 * path, a `deno.json` or `package.json` an interpreter looks for).
 */
export const SERVER_CWD = "/";

/** The file system of a sandboxed run, and how it is started: everything before the program. */
function mounts(root: string, options: ProfileOptions, cwd = root): string[] {
  const at = mountPoint(root, options.realRoot ?? root);
  const onto = (arg: string) =>
    arg === root ? at : arg.startsWith(`${root}/`) ? `${at}${arg.slice(root.length)}` : arg;
  const roots = [at, ...options.moreRoots ?? []];
  const holdsRoot = ({ path, isDirectory }: HiddenPath) =>
    isDirectory && roots.some((dir) => dir === path || within(path, dir));
  const inRoot = ({ path }: HiddenPath) => roots.some((dir) => within(dir, path));
  const [holding, rest] = partition(options.hidden, holdsRoot);
  const [inside, outside] = partition(rest, inRoot);
  return [
    ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"],
    ...["--ro-bind", "/proc/sys", "/proc/sys"],
    ...["--ro-bind-try", "/proc/sysrq-trigger", "/proc/sysrq-trigger"],
    ...["--ro-bind-try", "/dev/null", "/proc/keys", "--tmpfs", "/tmp"],
    ...holding.flatMap(({ path }) => ["--tmpfs", path]),
    ...(options.binds ?? []).flatMap(({ path, writable }) => [
      writable ? "--bind-try" : "--ro-bind-try",
      path,
      path,
    ]),
    // The directories of the relay's program and module, also where the private /tmp would
    // hide them (not the program's own path: node:child_process rewrites an argument equal to
    // Deno's executable into a deno command line).
    ...relayDirs(options.relay ?? []).flatMap((dir) => ["--ro-bind-try", dir, dir]),
    ...outside.flatMap(mask),
    ...roots.flatMap((dir) => [options.workspace === "ro" ? "--ro-bind" : "--bind", dir, dir]),
    ...options.extraMounts.map(onto),
    ...inside.flatMap(mask),
    ...["--die-with-parent", "--new-session", "--chdir", cwd],
  ];
}

/** The entries of `list` that pass `test`, and the others, each in order. */
function partition<T>(list: readonly T[], test: (entry: T) => boolean): [T[], T[]] {
  return [list.filter(test), list.filter((entry) => !test(entry))];
}

/** The bwrap arguments that cover `hidden`: a read-only empty tmpfs, or /dev/null. */
function mask({ path, isDirectory }: HiddenPath): string[] {
  return isDirectory ? ["--tmpfs", path, "--remount-ro", path] : ["--ro-bind", "/dev/null", path];
}

/** Whether `path` lies inside `dir` (not `dir` itself). */
function within(dir: string, path: string): boolean {
  return path.startsWith(dir === "/" ? "/" : `${dir}/`);
}

/** The directories of the absolute paths in the relay's argv, once each. */
function relayDirs(relay: readonly string[]): string[] {
  const dirs = relay.filter((arg) => arg.startsWith("/"))
    .map((path) => path.slice(0, path.lastIndexOf("/")) || "/");
  return [...new Set(dirs)].filter((dir) => dir !== "/");
}

/**
 * Where bwrap mounts the workspace `root` whose real path is `real`: `root` itself under
 * /tmp (the private /tmp hides a link there, and bwrap makes a directory in its place), else
 * the real path. bwrap cannot mount onto a symbolic link with an absolute target (it
 * resolves the target outside the new root: "Can't bind mount … No such file or
 * directory"); the link itself stays the working directory and leads to the mount.
 */
function mountPoint(root: string, real: string): string {
  return root === "/tmp" || root.startsWith("/tmp/") ? root : real;
}

/**
 * Starts bwrap with `args` and hands it the seccomp filter through stdin; bwrap and the
 * program get {@linkcode COMMAND_ENV} only, or powercode's whole environment with
 * `inheritEnv` (for powercode's own probes, never for a command).
 * Contract: throws `Deno.errors.NotFound` when bwrap is missing; a bwrap
 * that fails at once reports it through its exit status.
 */
export async function spawnBwrap(
  args: readonly string[],
  options: {
    stdout: "piped" | "null";
    stderr: "piped" | "null";
    signal?: AbortSignal;
    inheritEnv?: boolean;
    /** The command's whole environment (default {@linkcode COMMAND_ENV}). */
    env?: Readonly<Record<string, string>>;
  },
): Promise<Deno.ChildProcess> {
  const { inheritEnv, env = COMMAND_ENV, ...rest } = options;
  const child = new Deno.Command("bwrap", {
    args: [...args],
    ...(inheritEnv ? {} : { clearEnv: true, env: { ...env } }),
    stdin: "piped",
    ...rest,
  }).spawn();
  const writer = child.stdin.getWriter();
  try {
    await writer.write(sandboxFilter());
    await writer.close();
  } catch {
    // bwrap ended before reading: its status says why
  }
  return child;
}

/**
 * Whether bubblewrap can create this sandbox here: runs the confinement
 * (user namespace, dropped capabilities, seccomp filter) once with `true`.
 * `--as-pid-1` runs `true` as the namespace's first process: without it bwrap
 * starts a reaper there that exits after the bwrap powercode waits for, and is
 * left to init (a zombie where init reaps nothing, as in containers).
 * Contract: never throws; a missing binary, a refused namespace or filter,
 * or a hang longer than 5 s all mean false; no process of it outlives it.
 */
export async function probeBwrap(): Promise<boolean> {
  try {
    const args = [...CONFINEMENT, "--ro-bind", "/", "/", "--as-pid-1", "true"];
    const child = await spawnBwrap(args, {
      stdout: "null",
      stderr: "null",
      signal: AbortSignal.timeout(5000),
    });
    return (await child.status).success;
  } catch {
    return false;
  }
}
