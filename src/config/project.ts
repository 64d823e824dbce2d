/**
 * Project mode: the directories a run of the installed command works on (its roots), its
 * provider file and its state directory, resolved from the flags and the environment, and
 * handed from the launcher to the program in one environment variable.
 *
 * @module
 */
import { ConfigError } from "./config_error.ts";
import { DENO_FILES, type FileView } from "./file_view.ts";

/** MCP's configuration, beside the provider file (read by `src/mcp/`). */
export const MCP_FILE = "mcp.json";

/** The user's settings, beside the provider file; a project's are `.powercode/settings.json`. */
export const SETTINGS_FILE = "settings.json";

/**
 * The directory of the provider file's real path, which holds MCP's configuration in project
 * mode: a provider file named through a link (say, one inside the project) does not make the
 * link's directory powercode's configuration. Falls back to the directory of the path as
 * named when it cannot be resolved (no such file: the run then fails on the provider file).
 * Contract: the launcher (for the permission set) and the program (for what it reads) get the
 * same answer as long as the links do not change between them; if they do, the program's
 * check of its grants refuses to start.
 */
export function configDirOf(providerFile: string, files: FileView = DENO_FILES): string {
  let real = providerFile;
  try {
    real = files.realPathSync(providerFile);
  } catch {
    // Unreadable, missing or a loop: the provider file's own check reports it.
  }
  return real.slice(0, real.lastIndexOf("/")) || "/";
}

/** The variable through which the launcher hands the resolved project to the program. */
export const PROJECT_VARIABLE = "POWERCODE_PROJECT";

/** A resolved project: every path absolute, the roots real (free of symbolic links). */
export interface Project {
  /** The directories the tools may use; the first is the working directory. */
  roots: string[];
  /** The provider file (absolute, as named: it may be a symbolic link). */
  providerFile: string;
  /** Where sessions, input history and the session lock live. */
  stateDir: string;
  /** The user's home directory (real path), for `~/…` in settings; absent when unknown. */
  home?: string;
}

/**
 * The variables the launch step reads (its `--allow-env`): those of
 * {@linkcode ProjectEnvironment}.
 */
export const LAUNCH_VARIABLES = ["HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "POWERCODE_PROVIDER"];

/** What project resolution reads from outside besides the flags. */
export interface ProjectEnvironment {
  cwd: string;
  home: string | undefined;
  /** `XDG_STATE_HOME`; used only when absolute. */
  stateHome: string | undefined;
  /** `XDG_CONFIG_HOME`; used only when absolute. */
  configHome: string | undefined;
  /** `POWERCODE_PROVIDER`. */
  provider: string | undefined;
}

/** The flags project resolution reads. */
export interface ProjectFlags {
  dir?: string;
  addDirs: readonly string[];
  provider?: string;
}

/**
 * Resolves the project of a run: the roots (`--dir`, else the current directory, then each
 * `--add-dir`), the provider file (`--provider`, `POWERCODE_PROVIDER`, else
 * `$XDG_CONFIG_HOME/powercode/provider.json`) and the state directory
 * (`$XDG_STATE_HOME/powercode/projects/<name>-<hash>`).
 * Contract: throws a one-line `ConfigError` for a root that is `/`, the home directory,
 * missing, not a directory, or inside or around another root, and for any path a Deno
 * permission flag cannot carry (see {@linkcode refuseUncarriable}). Looks at the file system
 * through `files` only.
 */
export async function resolveProject(
  flags: ProjectFlags,
  env: ProjectEnvironment,
  files: FileView = DENO_FILES,
): Promise<Project> {
  const home = env.home === undefined
    ? undefined
    : await files.realPath(env.home).catch(() => env.home);
  const roots: string[] = [];
  for (const [flag, dir] of rootFlags(flags)) {
    const root = await resolveRoot(dir, absolute(dir ?? env.cwd, env.cwd), { flag, home, files });
    const overlap = roots.find((other) => contains(other, root) || contains(root, other));
    if (overlap !== undefined) {
      throw new ConfigError(
        `Cannot work on "${dir}" (${flag}): it overlaps the directory "${overlap}" already ` +
          "given; give each directory once, none inside another",
      );
    }
    roots.push(root);
  }
  const stateHome = xdgHome(env.stateHome, env.home, ".local/state", "XDG_STATE_HOME");
  const providerFile = flags.provider ?? env.provider ??
    `${xdgHome(env.configHome, env.home, ".config", "XDG_CONFIG_HOME")}/powercode/provider.json`;
  const project = {
    roots,
    providerFile: absolute(providerFile, env.cwd),
    stateDir: `${stateHome}/powercode/projects/${await stateName(roots[0] ?? env.cwd)}`,
    ...(home !== undefined ? { home } : {}),
  };
  refuseUncarriable(project.providerFile, "the provider file");
  refuseUncarriable(project.stateDir, "the state directory");
  return project;
}

/**
 * Throws a `ConfigError` when `path` holds a character a Deno permission flag cannot
 * carry: `--allow-read=A,B` splits at every comma and has no escape for one.
 */
export function refuseUncarriable(path: string, what: string): void {
  const problem = uncarriable(path);
  if (problem !== undefined) throw new ConfigError(`Cannot use ${what} "${path}": ${problem}`);
}

/** Why a Deno permission flag cannot carry `path`, or undefined when it can. */
function uncarriable(path: string): string | undefined {
  if (!path.includes(",")) return undefined;
  return "its path holds a comma, which Deno's permission flags (--allow-read=A,B) cannot " +
    "carry; rename or move it";
}

/** The name of a project's state directory: the root's name and a short hash of its real path. */
export async function stateName(root: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(root));
  const hash = Array.from(
    new Uint8Array(digest).subarray(0, 6),
    (byte) => byte.toString(16).padStart(2, "0"),
  ).join("");
  return `${root.slice(root.lastIndexOf("/") + 1)}-${hash}`;
}

/** The value of {@linkcode PROJECT_VARIABLE} for `project`. */
export function encodeProject(project: Project): string {
  return JSON.stringify(project);
}

function rootFlags(flags: ProjectFlags): [string, string | undefined][] {
  return [
    [flags.dir === undefined ? "the current directory" : "--dir", flags.dir],
    ...flags.addDirs.map((dir): [string, string] => ["--add-dir", dir]),
  ];
}

async function resolveRoot(
  given: string | undefined,
  path: string,
  options: { flag: string; home: string | undefined; files: FileView },
): Promise<string> {
  const named = given ?? path;
  const refuse = (why: string) =>
    new ConfigError(`Cannot work on "${named}" (${options.flag}): ${why}`);
  let real: string;
  try {
    real = await options.files.realPath(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw refuse("no such directory");
    throw error;
  }
  if (!(await options.files.stat(real)).isDirectory) throw refuse("not a directory");
  if (real === "/") {
    throw refuse("it is the root of the file system; give a project directory");
  }
  if (real === options.home) {
    throw refuse("it is your home directory; give a project directory inside it");
  }
  const problem = uncarriable(real);
  if (problem !== undefined) throw refuse(problem);
  return real;
}

function xdgHome(
  value: string | undefined,
  home: string | undefined,
  fallback: string,
  name: string,
): string {
  // The XDG base directory specification ignores relative values.
  if (value?.startsWith("/")) return normalize(value);
  if (home === undefined) {
    throw new ConfigError(`Cannot find powercode's files: neither ${name} nor HOME is set`);
  }
  return normalize(`${home}/${fallback}`);
}

/** Whether `dir` is `path` or one of its ancestors. */
function contains(dir: string, path: string): boolean {
  return path === dir || path.startsWith(dir === "/" ? "/" : `${dir}/`);
}

function absolute(path: string, cwd: string): string {
  return normalize(path.startsWith("/") ? path : `${cwd}/${path}`);
}

/** Lexically normalizes an absolute POSIX path: no `.`, `..`, empty segments. */
function normalize(path: string): string {
  const parts: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") parts.pop();
    else parts.push(segment);
  }
  return `/${parts.join("/")}`;
}
