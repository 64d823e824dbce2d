/**
 * Which of the paths a sandbox must hide exist, and where they really are, found by a probe
 * in the sandbox itself: powercode may not even look at most of them (Deno grants it only
 * its own project's files), and bubblewrap can mask only a path that exists.
 *
 * @module
 */
import { CONFINEMENT, type HiddenPath, spawnBwrap } from "./bwrap_profile.ts";

/** As long as the startup probe of bubblewrap may take. */
const PROBE_TIMEOUT_MS = 5000;

/**
 * Prints the kinds of the existing arguments (`d` or `f` each, one word, NUL-terminated),
 * then their real paths (each NUL-terminated), in the same order: one `realpath` for all,
 * since a process per path costs tens of milliseconds at every start.
 * A leading `$XDG_CONFIG_HOME/` or `$XDG_STATE_HOME/` is the variable's value when it is
 * absolute, else `$HOME/.config/` or `$HOME/.local/state/` (as the launcher resolves them),
 * and `$HOME` falls back to the passwd database's home directory. `[ -d ]` and `[ -e ]`
 * follow links as `realpath` does, so a path's kind is its real path's.
 */
const PROBE = `home=\${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}
case $XDG_CONFIG_HOME in /*) config=$XDG_CONFIG_HOME ;; *) config=$home/.config ;; esac
case $XDG_STATE_HOME in /*) state=$XDG_STATE_HOME ;; *) state=$home/.local/state ;; esac
kinds=
for path do
  shift
  case $path in
    '$XDG_CONFIG_HOME/'*) path=$config/\${path#*/} ;;
    '$XDG_STATE_HOME/'*) path=$state/\${path#*/} ;;
  esac
  if [ -d "$path" ]; then kinds=\${kinds}d; elif [ -e "$path" ]; then kinds=\${kinds}f; else continue; fi
  set -- "$@" "$path"
done
printf '%s\\0' "$kinds"
[ $# -eq 0 ] || exec realpath -z -m -- "$@"`;

/**
 * The paths of `paths` that exist, each by its real path and kind, each once, as a
 * sandboxed command would find them; relative paths are taken from powercode's working
 * directory, and a leading `$XDG_CONFIG_HOME/` or `$XDG_STATE_HOME/` is expanded from
 * powercode's environment by the probe (the program itself may not read those variables).
 * Contract: throws an Error when the probe fails, so that no command runs with a path
 * unmasked. Limit: a path made after the probe is not hidden.
 */
export async function resolveHidden(paths: readonly string[]): Promise<HiddenPath[]> {
  if (paths.length === 0) return [];
  const args = [...CONFINEMENT, "--ro-bind", "/", "/", "--dev", "/dev", "--chdir", Deno.cwd()];
  const child = await spawnBwrap([
    ...args,
    "--as-pid-1",
    "--",
    "bash",
    "-c",
    PROBE,
    "bash",
    ...paths,
  ], {
    stdout: "piped",
    stderr: "piped",
    inheritEnv: true,
    signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
  });
  const { success, stdout, stderr } = await child.output();
  const decoder = new TextDecoder();
  if (!success) {
    const reason = decoder.decode(stderr).trim().replace(/\s*\n\s*/g, "; ") || "it ended early";
    throw new Error(`Cannot find the paths to hide from commands: ${reason}`);
  }
  const [kinds = "", ...reals] = decoder.decode(stdout).split("\0");
  const found = new Map<string, HiddenPath>();
  for (const [index, path] of reals.entries()) {
    if (path.startsWith("/")) found.set(path, { path, isDirectory: kinds[index] === "d" });
  }
  // A path inside a hidden directory is hidden with it (and a mask inside a read-only tmpfs
  // could not be mounted).
  const dirs = [...found.values()].filter((hidden) => hidden.isDirectory).map(({ path }) => path);
  return [...found.values()].filter(({ path }) =>
    !dirs.some((dir) => dir !== path && path.startsWith(dir === "/" ? "/" : `${dir}/`))
  );
}
