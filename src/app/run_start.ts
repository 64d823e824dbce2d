/**
 * What every mode starts from, read once: the command line, where this run works, the
 * terminal's facts, and the settings of bash that follow from them.
 *
 * @module
 */
import {
  type CliOptions,
  ConfigError,
  LAYOUT_WORKSPACE,
  type Locations,
  ownFiles,
  PROJECT_MODE_HINT,
} from "../config/mod.ts";
import { type HostPattern, parseHostPattern } from "../core/mod.ts";
import {
  type Bind,
  COMMAND_ENV,
  type NetConnection,
  NetworkGate,
  relayArgv,
} from "../sandbox/mod.ts";
import { NO_SETTINGS, type Settings } from "../settings/mod.ts";
import { terminalColumns } from "../terminal/mod.ts";
import type { CreateToolsOptions } from "../tools/mod.ts";
import { PROJECT_SETTINGS, projectSettingsFile, userSettingsFile } from "./settings_start.ts";

/** The run before any part of it is opened. */
export interface RunStart {
  cli: CliOptions;
  locations: Locations;
  /** powercode's version, for the banner and MCP's client info. */
  version: string;
  /** The first root: where the tools work, and the working directory of commands. */
  workspaceDir: string;
  /** Where powercode was started (absolute): AGENTS.md files are read down to it. */
  cwd: string;
  /** stdin is a terminal. */
  stdinTerminal: boolean;
  /** stdout is a terminal. */
  stdoutTerminal: boolean;
  /** Colours are allowed (`NO_COLOR` unset); they also need a terminal. */
  colorAllowed: boolean;
  /** The columns to lay text out in: the terminal's, or undefined on a pipe (whole lines). */
  width(): number | undefined;
  /** Reads one environment variable. */
  env(name: string): string | undefined;
}

/** The run's start from the parsed command line and where it works. */
export function runStart(cli: CliOptions, locations: Locations, version: string): RunStart {
  const stdoutTerminal = Deno.stdout.isTerminal();
  const env = (name: string) => Deno.env.get(name);
  return {
    cli,
    locations,
    version,
    workspaceDir: locations.roots[0] ?? LAYOUT_WORKSPACE,
    cwd: Deno.cwd(),
    stdinTerminal: Deno.stdin.isTerminal(),
    stdoutTerminal,
    colorAllowed: !env("NO_COLOR"),
    width: () => stdoutTerminal ? terminalColumns() : undefined,
    env,
  };
}

/**
 * How bash is set up: every known provider file, every settings file and the state directory
 * hidden from commands; with settings, the user's directories bound, `PATH` and the variables
 * of `shell`, and the proxy of `network.allow` (`report` is told of each connection).
 */
export function bashOptions(
  start: RunStart,
  settings: Settings = NO_SETTINGS,
  report?: (connection: NetConnection) => void,
): CreateToolsOptions {
  const { cli, locations } = start;
  const { stateDir } = locations;
  // bwrap reads the empty file's path itself, from its own working directory.
  const absoluteState = stateDir.startsWith("/") ? stateDir : `${Deno.cwd()}/${stateDir}`;
  const project = projectSettingsFile(locations);
  return {
    unsandboxedBash: cli.unsandboxedBash,
    hide: [...ownFiles(locations), userSettingsFile(locations)],
    allowGitWrites: cli.allowGitWrites,
    moreDirs: locations.roots.slice(1),
    emptyFile: `${absoluteState}/empty`,
    jobsDir: `${absoluteState}/jobs`,
    ...(project !== undefined ? { protect: [PROJECT_SETTINGS] } : {}),
    ...shellOptions(start, settings, report),
  };
}

/** The sandbox's binds, environment and network from `settings`; nothing without them. */
function shellOptions(
  start: RunStart,
  settings: Settings,
  report: ((connection: NetConnection) => void) | undefined,
): Pick<CreateToolsOptions, "binds" | "env" | "network" | "allowedHosts"> {
  const { shell, network } = settings;
  const roots = start.locations.roots;
  const inRoot = (path: string) =>
    roots.some((root) => path === root || path.startsWith(`${root}/`));
  const binds: Bind[] = [
    ...shell.path.filter(({ value }) => !inRoot(value)).map(({ value }) => ({
      path: value,
      writable: false,
    })),
    ...shell.readOnly.map(({ value }) => ({ path: value, writable: false })),
    ...shell.writable.map(({ value }) => ({ path: value, writable: true })),
  ];
  const patterns = network.allow.map(({ value }) => parseHostPattern(value))
    .filter((pattern): pattern is HostPattern => typeof pattern !== "string");
  const gate = patterns.length > 0 ? new NetworkGate(patterns) : undefined;
  const variables = Object.fromEntries(shell.env.flatMap(({ value }) => {
    const found = start.env(value);
    return found === undefined ? [] : [[value, found]];
  }));
  const path = [...shell.path.map(({ value }) => value), COMMAND_ENV.PATH].join(":");
  const noProxy = gate ? { NO_PROXY: gate.noProxy(), no_proxy: gate.noProxy() } : {};
  const changed = binds.length > 0 || shell.path.length > 0 || shell.env.length > 0 || gate;
  // fetch, in powercode's process, reaches the same hosts as commands.
  const hosts = network.allow.map(({ value }) => value);
  return {
    allowedHosts: () => hosts,
    ...(binds.length > 0 ? { binds } : {}),
    ...(changed ? { env: { ...COMMAND_ENV, PATH: path, ...variables, ...noProxy } } : {}),
    ...(gate ? { network: { gate, relay: relayArgv(), ...(report ? { report } : {}) } } : {}),
  };
}

/** Where task snapshots go: content-addressed in the state directory (see src/undo/). */
export function snapshotsDir(start: RunStart): string {
  return `${start.locations.stateDir}/snapshots`;
}

/** Where the sessions live, in the state directory. */
export function sessionsDir(start: RunStart): string {
  return `${start.locations.stateDir}/sessions`;
}

/** In the workspace layout: throws unless `./workspace` is a directory. */
export async function requireWorkspace(start: RunStart): Promise<void> {
  if (start.locations.mode === "project") return;
  try {
    if ((await Deno.stat(LAYOUT_WORKSPACE)).isDirectory) return;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  throw new ConfigError(
    `No "${LAYOUT_WORKSPACE}/" directory here: create it (mkdir ${LAYOUT_WORKSPACE}) or start ` +
      `powercode in the directory that holds it; ${PROJECT_MODE_HINT}`,
  );
}
