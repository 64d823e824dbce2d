/**
 * The agent's tools, wired to one workspace, and the live tool set with its policy.
 *
 * @module
 */
import type { Tool } from "./tool.ts";
import { Workspace } from "../workspace/mod.ts";
import { createReadFileTool } from "./read_file.ts";
import { createWriteFileTool } from "./write_file.ts";
import { createEditFileTool } from "./edit_file.ts";
import { createBashTool } from "./bash.ts";
import {
  BackgroundJobs,
  type Bind,
  type HiddenPath,
  LazySandboxSetup,
  probeBwrap,
  resolveHidden,
  Sandbox,
  type SandboxNetwork,
  type SandboxSetup,
} from "../sandbox/mod.ts";
import { createBashOutputTool } from "./bash_output.ts";
import { createBashKillTool } from "./bash_kill.ts";
import { createFetchTool } from "./fetch.ts";
import { type IgnoreMounts, ignoreMounts } from "../workspace/mod.ts";
import { ServerLauncher } from "../sandbox/mod.ts";
import { PlanGuard } from "./plan_guard.ts";
import { createTodoTool } from "./todo.ts";
import { createGrepTool } from "./grep.ts";
import { createGlobTool } from "./glob.ts";
import { createLsTool } from "./ls.ts";

export { Workspace } from "../workspace/mod.ts";
export { userCommandCall } from "./bash.ts";
export { stopProcessGroup } from "../sandbox/mod.ts";
export { type Joining, ToolSet, type ToolSetOptions } from "./tool_set.ts";
export type { PolicyVerdict, RunTool, ToolPolicy, ToolRequest } from "./policy.ts";
export type { CallGrant, Tool, ToolContext, ToolOutput, ToolPaths } from "./tool.ts";
export { defineParams } from "./params.ts";
export type { Sandbox } from "../sandbox/mod.ts";
export {
  describeSandbox,
  SANDBOX_PROGRAMS,
  type SandboxReport,
  type SandboxScope,
} from "../sandbox/mod.ts";
export { IGNORE_FILE } from "../workspace/mod.ts";
export {
  type ServerExit,
  ServerLauncher,
  type ServerOutput,
  type ServerProcess,
  type ServerSpec,
} from "../sandbox/mod.ts";
export type { SandboxMode } from "../sandbox/mod.ts";
export { formatSize, MAX_BYTES, MAX_LINES, truncate } from "../core/mod.ts";
export { PLAN_FILE, PlanGuard } from "./plan_guard.ts";
export { createTodoTool, todoItemsOf, unfinishedTodo } from "./todo.ts";
export { allOf } from "./policy.ts";
export { changedLines } from "./line_diff.ts";
export { BASH_TOOL, USER_COMMAND_ID } from "./bash.ts";
export { BackgroundJobs, type JobInfo } from "../sandbox/mod.ts";
export { stateLine, stateSummary } from "./bash_output.ts";
export { hostAllowed } from "./allowed_hosts.ts";

/** How {@linkcode createTools} sets up bash. */
export interface CreateToolsOptions {
  /** Run bash without bubblewrap (`--unsandboxed-bash`). */
  unsandboxedBash: boolean;
  /** Replaces {@linkcode probeBwrap}, for tests. */
  probe?: () => Promise<boolean>;
  /**
   * Told of the warning that bubblewrap cannot run, when the probe finds it: at the first
   * command, hook, stdio server or `--scope` of the run (see {@linkcode Sandbox.ready}).
   */
  warn?: (warning: string) => void;
  /**
   * powercode's own files and directories, which sandboxed commands and servers must neither
   * read nor write, even inside a root (the provider files, `mcp.json`, the state directory
   * of every project); missing ones are skipped, `~/` is powercode's user's home directory
   * (see {@linkcode resolveHidden}).
   */
  hide?: readonly string[];
  /**
   * Let the file tools and sandboxed commands write every git directory and create
   * repositories (`--allow-git-writes`): the workspace's `gitControl`, which the sandbox follows.
   */
  allowGitWrites?: boolean;
  /** Further roots (`--add-dir`): the file tools and the sandbox confine to any root. */
  moreDirs?: readonly string[];
  /**
   * A path outside the roots, hidden from commands, where an empty file is kept to cover the
   * files `.powercodeignore` ignores (default: `/dev/null`, which commands cannot open).
   */
  emptyFile?: string;
  /** Where background commands' whole output is kept (in the state directory); else nowhere. */
  jobsDir?: string;
  /**
   * The hosts fetch may read from, asked at each call (the settings' `network.allow`);
   * default none, so every fetch is refused with the host's name.
   */
  allowedHosts?: () => readonly string[];
  /**
   * Paths below the first root that the file tools refuse and commands see as empty (the
   * project's `.powercode/settings.json`).
   */
  protect?: readonly string[];
  /** The user's directories bound into the sandbox (`shell.path`, `readOnly`, `writable`). */
  binds?: readonly Bind[];
  /** The whole environment of commands (default: the sandbox's fixed one). */
  env?: Readonly<Record<string, string>>;
  /** HTTP(S) to the allowed hosts through powercode's proxy, for commands and stdio servers. */
  network?: SandboxNetwork;
}

/** The tools, their workspace, and the one-line warnings known at once, for the terminal. */
export interface Tools {
  workspace: Workspace;
  /**
   * read_file, write_file, edit_file, bash, todo, grep, glob, ls, bash_output, bash_kill,
   * fetch, in that order.
   */
  tools: Tool[];
  /** What bash runs through; its mode is found at its first use (see {@linkcode Sandbox.ready}). */
  sandbox: Sandbox;
  /** The warning of unsandboxed bash; the probe's goes to `warn` when it runs. */
  warnings: string[];
  /** Plan mode's switch and policy; it makes bash's sandbox read-only while on. */
  plan: PlanGuard;
  /** Starts helper programs (MCP servers) in the sandbox mode bash got. */
  servers: ServerLauncher;
  /** bash's background commands; close them when the run ends. */
  jobs: BackgroundJobs;
}

/**
 * Opens the workspace at `workspaceDir` and creates the tools for it, without probing
 * bubblewrap: the sandbox and the server launcher share one probe, run when either is first
 * used.
 * Contract: bash always runs under bubblewrap unless `unsandboxedBash` is set;
 * when bubblewrap cannot run, the bash tool is kept but refuses every call,
 * and a warning (to `warn`, when the probe runs) says how to fix it. Unsandboxed mode gets a
 * warning in `warnings`. A failed probe of the hidden paths fails every command and server
 * start with its error, so that none runs with a path unmasked.
 * Contract: throws when the workspace directory is missing (see {@linkcode Workspace.open}).
 */
export async function createTools(
  workspaceDir: string,
  options: CreateToolsOptions,
): Promise<Tools> {
  const workspace = await Workspace.open(workspaceDir, {
    gitControl: options.allowGitWrites ? "writable" : "protected",
    ...(options.moreDirs ? { moreDirs: options.moreDirs } : {}),
    ...(options.protect ? { protect: options.protect } : {}),
  });
  const warnings = options.unsandboxedBash ? [UNSANDBOXED_WARNING] : [];
  const setup = options.unsandboxedBash
    ? LazySandboxSetup.known({ mode: "unsandboxed", hidden: [] })
    : new LazySandboxSetup("bwrap", () => findSetup(options));
  const confinement = { gitControl: workspace.gitControl };
  // By the paths the roots were opened by: the git guard checks .git through Deno's permissions.
  const [first, ...more] = workspace.roots;
  const mounts = async (): Promise<IgnoreMounts> => {
    const ignored = await ignoreMounts(workspace.path, workspace.ignore, options.emptyFile);
    const protectedFiles = await protectMounts(workspace, options.protect ?? []);
    return { pins: ignored.pins, masks: [...ignored.masks, ...protectedFiles] };
  };
  const sandbox = new Sandbox(first.access, setup, {
    ...confinement,
    moreRoots: more.map((root) => root.access),
    mounts,
    ...(options.binds ? { binds: options.binds } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.network ? { network: options.network } : {}),
  });
  const jobs = new BackgroundJobs(sandbox, options.jobsDir ? { logDir: options.jobsDir } : {});
  const bash = createBashTool(sandbox, jobs);
  const bashKill = createBashKillTool(jobs);
  return {
    workspace,
    tools: [
      createReadFileTool(workspace),
      createWriteFileTool(workspace),
      createEditFileTool(workspace),
      bash,
      createTodoTool(workspace),
      createGrepTool(workspace),
      createGlobTool(workspace),
      createLsTool(workspace),
      createBashOutputTool(jobs),
      bashKill,
      createFetchTool({ allowedHosts: options.allowedHosts ?? (() => []) }),
    ],
    sandbox,
    warnings,
    // Servers see the further roots read-only, and what .powercodeignore ignores masked.
    servers: new ServerLauncher(workspace.path, setup, {
      ...confinement,
      mounts,
      ...(options.binds ? { binds: options.binds } : {}),
      ...(options.network ? { network: options.network } : {}),
    }),
    plan: new PlanGuard(workspace, { runner: sandbox, confined: [bash.name, bashKill.name] }),
    jobs,
  };
}

const UNSANDBOXED_WARNING = "bash runs WITHOUT a sandbox (--unsandboxed-bash): commands " +
  "have your full user rights and network access";

/** What the probe tells `warn` when bubblewrap cannot run. */
const BWRAP_MISSING_WARNING = "bubblewrap (bwrap) is missing or cannot create a sandbox here, " +
  "so bash is disabled; install it (apt-get install bubblewrap) or start powercode with " +
  "--unsandboxed-bash";

/** Probes the sandbox: `bwrap` and the hidden paths, or `unavailable` (and warns). */
async function findSetup(options: CreateToolsOptions): Promise<SandboxSetup> {
  const { works, hidden } = await probeSandbox(options);
  if (works) return { mode: "bwrap", hidden };
  options.warn?.(BWRAP_MISSING_WARNING);
  return { mode: "unavailable", hidden: [] };
}

/** Whether bubblewrap works here, and the paths it hides when it does. */
interface SandboxProbe {
  works: boolean;
  hidden: HiddenPath[];
}

/**
 * Probes bubblewrap with one process in the usual case: the hidden paths' probe runs in the
 * sandbox, so its success shows that bubblewrap works. The bare probe runs only when it fails,
 * to tell a bubblewrap that cannot run (bash is then off) from a failed probe of the paths,
 * which throws as before: no command may run with a path unmasked.
 */
async function probeSandbox(options: CreateToolsOptions): Promise<SandboxProbe> {
  const paths = options.hide ?? [];
  if (options.probe || paths.length === 0) {
    const works = await (options.probe ?? probeBwrap)();
    return { works, hidden: works ? await resolveHidden(paths) : [] };
  }
  try {
    return { works: true, hidden: await resolveHidden(paths) };
  } catch (error) {
    if (await probeBwrap()) throw error;
    return { works: false, hidden: [] };
  }
}

/** Covers each protected file that exists now with `/dev/null`, read-only, after the roots. */
async function protectMounts(workspace: Workspace, paths: readonly string[]): Promise<string[]> {
  const args: string[] = [];
  for (const path of paths) {
    try {
      const info = await Deno.lstat(`${workspace.path}/${path}`);
      const target = `${workspace.root}/${path}`;
      args.push(
        ...(info.isDirectory ? ["--tmpfs", target, "--remount-ro", target] : [
          "--ro-bind",
          "/dev/null",
          target,
        ]),
      );
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return args;
}

export { createReadFileTool } from "./read_file.ts";
export { readTextHead, type TextHead } from "../workspace/mod.ts";
export { workspaceImage } from "./image_page.ts";
