/**
 * What a bubblewrap profile grants, read back from its arguments: what `--scope` shows
 * of the bash sandbox is taken from the very arguments a command would run with.
 *
 * @module
 */
import type { GitControl } from "../workspace/mod.ts";
import type { Sandbox, SandboxMode, WorkspaceMode } from "./sandbox.ts";
import { FILTER_SUMMARY } from "./seccomp.ts";

/** The programs the bash tool starts: bubblewrap, and the shell itself when unsandboxed. */
export const SANDBOX_PROGRAMS: readonly string[] = ["bwrap", "bash"];

/** The bash tool's confinement as `--scope` shows it. */
export interface SandboxReport {
  mode: SandboxMode;
  workspace: WorkspaceMode;
  /** Whether every `.git` and git directory of each root is read-only for commands. */
  gitControl: GitControl;
  /** Under bubblewrap: what a command started now gets. */
  scope?: SandboxScope;
  /** What the seccomp filter refuses. */
  filter: string;
}

/**
 * The confinement of a command `sandbox` would start now.
 * Contract: creates nothing on disk (git's placeholders are left out of the arguments read).
 */
export async function describeSandbox(sandbox: Sandbox): Promise<SandboxReport> {
  const args = await sandbox.preview("true");
  const { mode, workspace, gitControl } = sandbox;
  return {
    mode,
    workspace,
    gitControl,
    ...(args ? { scope: describeBwrapArgs(args) } : {}),
    filter: FILTER_SUMMARY,
  };
}

/** The bash sandbox's authority, as its bwrap arguments set it. */
export interface SandboxScope {
  /** Bound read-write, in mount order. */
  readWrite: string[];
  /** Bound read-only onto themselves, in mount order. */
  readOnly: string[];
  /** Covered read-only by something else (an empty file, `/dev/null`, an empty tmpfs). */
  masked: string[];
  /** Fresh and private to the command: an empty tmpfs, `/dev`, `/proc`. */
  private: string[];
  /** The namespaces of its own (`net` means no network). */
  namespaces: string[];
  /** Whether every capability is dropped. */
  capabilitiesDropped: boolean;
  /** Whether a seccomp filter is installed. */
  seccomp: boolean;
  /** Options this reader does not know, verbatim, so nothing goes unshown. */
  other: string[];
}

/** How many values each known option takes. */
const ARITY: Record<string, number> = {
  "--bind": 2,
  "--bind-try": 2,
  "--ro-bind": 2,
  "--ro-bind-try": 2,
  "--tmpfs": 1,
  "--remount-ro": 1,
  "--dev": 1,
  "--proc": 1,
  "--cap-drop": 1,
  "--seccomp": 1,
  "--chdir": 1,
  "--die-with-parent": 0,
  "--new-session": 0,
};

/**
 * Reads the options of bwrap arguments (up to the `--` before the command).
 * Contract: pure; an unknown option lands in `other`, taken to have no value.
 */
export function describeBwrapArgs(args: readonly string[]): SandboxScope {
  const scope: SandboxScope = {
    readWrite: [],
    readOnly: [],
    masked: [],
    private: [],
    namespaces: [],
    capabilitiesDropped: false,
    seccomp: false,
    other: [],
  };
  for (let at = 0; at < args.length && args[at] !== "--";) {
    const option = args[at] ?? "";
    const values = args.slice(at + 1, at + 1 + (ARITY[option] ?? 0));
    at += 1 + values.length;
    const [first = "", second = ""] = values;
    if (option.startsWith("--unshare-")) scope.namespaces.push(option.slice("--unshare-".length));
    else if (option === "--bind" || option === "--bind-try") scope.readWrite.push(second);
    else if (option === "--ro-bind" || option === "--ro-bind-try") {
      (first === second ? scope.readOnly : scope.masked).push(second);
    } else if (option === "--tmpfs") {
      const readOnly = args[at] === "--remount-ro" && args[at + 1] === first;
      if (readOnly) at += 2;
      (readOnly ? scope.masked : scope.private).push(first);
    } else if (option === "--remount-ro") scope.readOnly.push(first);
    else if (option === "--dev" || option === "--proc") scope.private.push(first);
    else if (option === "--cap-drop") scope.capabilitiesDropped ||= first === "ALL";
    else if (option === "--seccomp") scope.seccomp = true;
    else if (!(option in ARITY)) scope.other.push(option);
  }
  return scope;
}
