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
  return [
    ...CONFINEMENT,
    ...mounts(root, options),
    ...["--", "bash", "-c", SANDBOX_ENTRY, "bash", command],
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
 * bwrap arguments that run a long-lived server `argv` in the workspace at `root`, talking
 * through stdin and stdout; the filter from {@linkcode sandboxFilter} must be written to
 * bwrap's fd 3 (stdin is the server's).
 *
 * Contract: the mounts, namespaces and capabilities of {@linkcode bwrapArgs}; no network
 * unless `network`; the server's environment is bwrap's own, less `unset`.
 */
export function serverBwrapArgs(
  root: string,
  options: ServerProfileOptions,
  argv: readonly string[],
): string[] {
  return [
    ...confinement(options.network, 3),
    ...mounts(root, options),
    ...options.unset.flatMap((name) => ["--unsetenv", name]),
    ...["--", "bash", "-c", SERVER_ENTRY, "bash", ...argv],
  ];
}

/** The file system of a sandboxed run, and how it is started: everything before the program. */
function mounts(root: string, options: ProfileOptions): string[] {
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
    ...outside.flatMap(mask),
    ...roots.flatMap((dir) => [options.workspace === "ro" ? "--ro-bind" : "--bind", dir, dir]),
    ...options.extraMounts.map(onto),
    ...inside.flatMap(mask),
    ...["--die-with-parent", "--new-session", "--chdir", root],
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
  },
): Promise<Deno.ChildProcess> {
  const { inheritEnv, ...stdio } = options;
  const child = new Deno.Command("bwrap", {
    args: [...args],
    ...(inheritEnv ? {} : { clearEnv: true, env: COMMAND_ENV }),
    stdin: "piped",
    ...stdio,
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
