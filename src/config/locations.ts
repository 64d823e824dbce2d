/**
 * Where a run works and keeps its files: the workspace layout (`./workspace`,
 * `./provider.json`, `./.powercode/`) or a project the launcher resolved.
 *
 * @module
 */
import type { CliOptions } from "./cli.ts";
import { ConfigError } from "./config_error.ts";
import { isObject, isString } from "../core/mod.ts";
import { configDirOf, MCP_FILE, type Project, PROJECT_VARIABLE } from "./project.ts";

/** The workspace layout's directory the tools work in. */
export const LAYOUT_WORKSPACE = "workspace";
/** The workspace layout's state directory. */
export const LAYOUT_STATE = ".powercode";

/** How to get project mode, for the lines that refuse to start without it. */
export const PROJECT_MODE_HINT = "to work on any directory, install the powercode command " +
  "from its checkout (deno task install) and run powercode there";

/** The directories and files of one run. */
export interface Locations {
  mode: "layout" | "project";
  /** The directories the tools may use, the first is their working directory. */
  roots: string[];
  providerFile: string;
  /** Holds MCP's `mcp.json`: `.powercode/` in the layout, the provider file's directory else. */
  configDir: string;
  /** Sessions (`sessions/`, with their locks) and input history (`history`). */
  stateDir: string;
  /** The user's home directory, for `~/…` in settings (project mode only). */
  home?: string;
}

/**
 * The locations of this run: the project in {@linkcode PROJECT_VARIABLE} when the launcher
 * set it, the workspace layout in the current directory when `--workspace-layout` came
 * first (the checkout's `start` task and compiled binary), else none: what the current
 * directory holds never chooses the layout.
 * Contract: throws a one-line `ConfigError` when neither is given, when the
 * project's paths are not granted to this process by Deno (it was not started by the
 * launcher), when MCP's `mcp.json` beside the provider file's real path lies inside a root,
 * and when `--dir` or `--add-dir` is given without a project (they need the launcher's
 * permissions).
 */
export function locate(cli: CliOptions, env: (name: string) => string | undefined): Locations {
  const text = env(PROJECT_VARIABLE);
  if (text !== undefined) {
    const project = decodeProject(text);
    requireGranted(project.roots, ["read", "write"]);
    requireGranted([project.stateDir], ["read", "write"]);
    requireGranted([project.providerFile], ["read"]);
    const configDir = configDirOf(project.providerFile);
    requireGranted([`${configDir}/${MCP_FILE}`], ["read"]);
    refuseInsideRoots(`${configDir}/${MCP_FILE}`, project.roots);
    return { mode: "project", ...project, configDir };
  }
  if (!cli.layout) {
    throw new ConfigError(
      "Cannot start: no project and no workspace layout given; run the powercode command " +
        '"deno task install" writes (run it again if yours is older), or "deno task start" in ' +
        "powercode's checkout",
    );
  }
  const flag = cli.dir !== undefined ? "--dir" : cli.addDirs.length > 0 ? "--add-dir" : undefined;
  if (flag !== undefined) {
    throw new ConfigError(
      `Cannot use ${flag} here: this powercode may use only ./${LAYOUT_WORKSPACE}; ` +
        PROJECT_MODE_HINT,
    );
  }
  return {
    mode: "layout",
    roots: [LAYOUT_WORKSPACE],
    providerFile: cli.provider ?? env("POWERCODE_PROVIDER") ?? "provider.json",
    configDir: LAYOUT_STATE,
    stateDir: LAYOUT_STATE,
  };
}

/**
 * Refuses MCP's user file when its real path lies inside a root: the agent's tools could
 * write the servers powercode starts without asking.
 */
function refuseInsideRoots(mcpFile: string, roots: readonly string[]): void {
  let real: string;
  try {
    real = Deno.realPathSync(mcpFile);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  const root = roots.find((root) => real === root || real.startsWith(`${root}/`));
  if (root === undefined) return;
  throw new ConfigError(
    `Cannot use MCP config "${mcpFile}": it lies inside the directory "${root}" the tools may ` +
      `write (real path "${real}"); keep it beside the provider file, outside the project`,
  );
}

function requireGranted(paths: readonly string[], kinds: readonly ("read" | "write")[]): void {
  for (const path of paths) {
    for (const name of kinds) {
      if (Deno.permissions.querySync({ name, path }).state === "granted") continue;
      throw new ConfigError(
        `Cannot work on "${path}": Deno does not let this process ${name} it; start powercode ` +
          `with the command "deno task install" writes (or unset ${PROJECT_VARIABLE})`,
      );
    }
  }
}

/**
 * Reads a project from the value of {@linkcode PROJECT_VARIABLE}.
 * Contract: throws a `ConfigError` when it is not a project with absolute paths.
 */
export function decodeProject(text: string): Project {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  const isAbsolute = (value: unknown) => isString(value) && value.startsWith("/");
  if (
    isObject(data) && Array.isArray(data.roots) && data.roots.length > 0 &&
    data.roots.every(isAbsolute) && isAbsolute(data.providerFile) && isAbsolute(data.stateDir)
  ) {
    return {
      roots: data.roots as string[],
      providerFile: data.providerFile as string,
      stateDir: data.stateDir as string,
      ...(isAbsolute(data.home) ? { home: data.home as string } : {}),
    };
  }
  throw new ConfigError(
    `Invalid ${PROJECT_VARIABLE}: expected the project the powercode launcher sets; unset it`,
  );
}
