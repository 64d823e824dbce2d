/**
 * The directories a command may ask to write for one run (`need_dirs` of bash, granted by
 * the user): each resolved to its real path outside powercode's process (which may not read
 * there), then checked against what must stay out of reach.
 *
 * @module
 */
import type { HiddenPath } from "./bwrap_profile.ts";

/** File systems of the sandbox's own that a bind would replace. */
const SYSTEM_DIRS = ["/proc", "/sys", "/dev"];

/** What a directory asked for is checked against. */
export interface GrantDirLimits {
  /** The roots (real paths): already writable, so never asked for. */
  roots: readonly string[];
  /** Directories bound writable by the settings: already writable too. */
  writable: readonly string[];
  /** What commands never see (provider files, settings, the state directory). */
  hidden: readonly HiddenPath[];
}

/**
 * The real path of directory `dir`, or why it cannot be granted.
 * Contract: `dir` must be absolute; it is resolved by `bash` (`cd -P`), so symbolic links
 * anywhere in it are followed; refused: a missing directory, `/`, `/proc`, `/sys`, `/dev`
 * and what is below them, a directory inside a root or a writable bind, and one that holds,
 * or lies inside, a hidden path.
 */
export async function resolveGrantDir(
  dir: string,
  limits: GrantDirLimits,
): Promise<{ real: string } | { problem: string }> {
  if (!dir.startsWith("/")) return { problem: `"${dir}" is not an absolute path` };
  const output = await new Deno.Command("bash", {
    args: ["-c", 'cd -P -- "$1" 2>/dev/null && pwd -P', "bash", dir],
    clearEnv: true,
    env: { PATH: "/usr/bin:/bin" },
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  const real = new TextDecoder().decode(output.stdout).replace(/\n$/, "");
  if (!output.success || !real.startsWith("/")) {
    return { problem: `"${dir}" is not a directory` };
  }
  const shown = real === dir ? `"${dir}"` : `"${dir}" (really "${real}")`;
  const under = (path: string, base: string) => path === base || path.startsWith(`${base}/`);
  if (real === "/" || SYSTEM_DIRS.some((system) => under(real, system))) {
    return { problem: `${shown} is the system's, never granted` };
  }
  if ([...limits.roots, ...limits.writable].some((base) => under(real, base))) {
    return { problem: `${shown} is writable already (a root or shell.writable)` };
  }
  const hidden = limits.hidden.find(({ path }) => under(real, path) || under(path, real));
  if (hidden) return { problem: `${shown} holds or lies in "${hidden.path}", powercode's own` };
  return { real };
}
