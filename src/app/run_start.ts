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
import { terminalColumns } from "../terminal/mod.ts";
import type { CreateToolsOptions } from "../tools/mod.ts";

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

/** How bash is set up: powercode's own files (see `ownFiles`) hidden from commands. */
export function bashOptions(start: RunStart): CreateToolsOptions {
  const { cli, locations } = start;
  const { stateDir } = locations;
  // bwrap reads the empty file's path itself, from its own working directory.
  const absoluteState = stateDir.startsWith("/") ? stateDir : `${Deno.cwd()}/${stateDir}`;
  return {
    unsandboxedBash: cli.unsandboxedBash,
    hide: ownFiles(locations),
    allowGitWrites: cli.allowGitWrites,
    moreDirs: locations.roots.slice(1),
    emptyFile: `${absoluteState}/empty`,
    jobsDir: `${absoluteState}/jobs`,
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
