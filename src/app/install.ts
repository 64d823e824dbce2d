/**
 * `deno task install`: puts a `powercode` command on PATH (`~/.local/bin` by default, or the
 * directory given as the first argument) that runs this checkout on the directory it is
 * started in (project mode), always: a `workspace/` there is the project's own folder.
 *
 * @module
 */
import { LAUNCH_VARIABLES } from "../config/mod.ts";

/** The number of cached launches kept (the newest). */
export const LAUNCH_CACHE_ENTRIES = 64;

/**
 * The launcher script for the checkout at `root` (an absolute path).
 *
 * It runs the checkout's launch step (`src/config/launch.ts`), which prints the command that
 * starts this run in project mode with its permission set, and `exec`s that command with the
 * user's arguments; a refusal of the launch step (exit 2, one line) ends it.
 * Contract: never the workspace layout, whatever the current directory holds (a cloned
 * repository may hold `workspace/`, `provider.json` and `.powercode/`); the launch step may
 * read files and the variables it needs, and nothing else.
 *
 * The cache: what the launch step printed is kept in
 * `${XDG_STATE_HOME:-$HOME/.local/state}/powercode/launch/<sha-256 of the key>` (the key: the
 * checkout, the physical current directory, the launch step's four variables, the
 * arguments but a `-p` prompt's text), with the `stat` of every path it looked at. A start whose entry exists and whose
 * paths `stat` the same runs the cached command: two processes (`sha256sum`, then a subshell
 * that tests the directories and becomes `stat` on the rest) instead of a second Deno. An
 * entry is written only when `stat` still sees what the launch step saw (nothing changed in
 * between) and the launch step found the prompt where the key left it out, to a temp name
 * then renamed, and only in a directory the user owns.
 */
export function launcherScript(root: string): string {
  const launch = `deno run --config ${quote(`${root}/deno.json`)} --allow-read ` +
    `--allow-env=${LAUNCH_VARIABLES.join(",")} --no-prompt ` +
    `${quote(`${root}/src/config/launch.ts`)} "$@"`;
  return `#!/bin/sh
# powercode, installed by "deno task install" from ${root}
# Cached launches: $XDG_STATE_HOME/powercode/launch/ (see docs/project-mode.md).
unset powercode_command powercode_expected powercode_observed powercode_complete
unset powercode_cacheable
powercode_root=${quote(root)}
powercode_format='%f %d %i %s %.9Y %.9Z'
powercode_entry=
case \${XDG_STATE_HOME-} in
/*) powercode_cache=$XDG_STATE_HOME/powercode/launch ;;
*) powercode_cache=\${HOME:+$HOME/.local/state/powercode/launch} ;;
esac
if [ -n "$powercode_cache" ] && cd -P . 2>/dev/null; then
  powercode_key="launch-1 \${#powercode_root}:$powercode_root \${#PWD}:$PWD"
  powercode_key="$powercode_key \${HOME+=}\${#HOME}:\${HOME-}"
  powercode_key="$powercode_key \${XDG_STATE_HOME+=}\${#XDG_STATE_HOME}:\${XDG_STATE_HOME-}"
  powercode_key="$powercode_key \${XDG_CONFIG_HOME+=}\${#XDG_CONFIG_HOME}:\${XDG_CONFIG_HOME-}"
  powercode_key="$powercode_key \${POWERCODE_PROVIDER+=}\${#POWERCODE_PROVIDER}:\${POWERCODE_PROVIDER-}"
  # A -p prompt (not starting with "-") shapes no launch: one entry serves every prompt.
  powercode_after_print=
  for powercode_arg in "$@"; do
    case $powercode_after_print$powercode_arg in
    1-*) ;;
    1*) powercode_key="$powercode_key prompt"; powercode_after_print=; continue ;;
    esac
    case $powercode_arg in -p | --print) powercode_after_print=1 ;; *) powercode_after_print= ;; esac
    powercode_key="$powercode_key \${#powercode_arg}:$powercode_arg"
  done
  powercode_hash=$(sha256sum <<EOF
$powercode_key
EOF
)
  powercode_entry=$powercode_cache/\${powercode_hash%% *}
  # Another user's directory or entry (a shared XDG_STATE_HOME, say) is never used.
  if [ -f "$powercode_entry" ] && [ -O "$powercode_entry" ] && [ -O "$powercode_cache" ]; then
    powercode_seen=$(. "$powercode_entry" 2>/dev/null && [ "$powercode_complete" = 1 ] &&
      printf ok && powercode_stat "$powercode_format")
    case $powercode_seen in
    ok?*)
      . "$powercode_entry"
      if [ "\${powercode_seen#ok}" = "$powercode_expected" ] && [ -n "$powercode_command" ]; then
        eval "$powercode_command"' "$@"'
      fi
      ;;
    esac
  fi
fi
if [ -n "$powercode_entry" ] && [ ! -d "$powercode_cache" ]; then
  # Made before the launch step looks, as it may be inside a directory the step looks at.
  mkdir -p -m 700 "$powercode_cache" 2>/dev/null || powercode_entry=
fi
powercode_launch=$(${launch}) || exit
eval "$powercode_launch"
if [ -n "$powercode_entry" ] && [ -O "$powercode_cache" ]; then
  powercode_expected=$(powercode_stat "$powercode_format")
  if [ -n "$powercode_expected" ] && [ "$powercode_cacheable" = 1 ] &&
    [ "$(powercode_stat "$powercode_observed_format")" = "$powercode_observed" ]; then
    powercode_temp=$powercode_cache/.$$.\${powercode_entry##*/}
    if printf '%s\\n' "$powercode_launch" "powercode_expected='$powercode_expected'" \\
      powercode_complete=1 >"$powercode_temp" 2>/dev/null; then
      mv -f "$powercode_temp" "$powercode_entry" 2>/dev/null || rm -f "$powercode_temp"
    fi
    (cd "$powercode_cache" 2>/dev/null && set -- $(ls -t) &&
      [ $# -gt ${LAUNCH_CACHE_ENTRIES} ] && shift ${LAUNCH_CACHE_ENTRIES} && rm -f -- "$@")
  fi
fi
eval "$powercode_command"' "$@"'
`;
}

/** `word` as one single-quoted `sh` word. */
function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The directory `deno task install` writes to: the first argument, else `~/.local/bin`.
 * A leading `--` (the README's `deno task install -- DIR`) is no directory name.
 */
export function installDir(args: readonly string[], home: string | undefined): string | undefined {
  const [first, ...rest] = args;
  const dir = first === "--" ? rest[0] : first;
  return dir ?? (home ? `${home}/.local/bin` : undefined);
}

async function main(args: string[]): Promise<number> {
  const root = decodeURIComponent(new URL("../..", import.meta.url).pathname).replace(/\/$/, "");
  const dir = installDir(args, Deno.env.get("HOME"));
  if (!dir) {
    console.error("powercode install: HOME is not set; give the target directory");
    return 2;
  }
  await Deno.mkdir(dir, { recursive: true });
  const target = `${dir}/powercode`;
  await Deno.writeTextFile(target, launcherScript(root), { mode: 0o755 });
  await Deno.chmod(target, 0o755);
  console.log(`Installed ${target}: run powercode in your project's directory`);
  if (!(Deno.env.get("PATH") ?? "").split(":").includes(dir)) {
    console.log(`Add ${dir} to PATH to run it by name`);
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
