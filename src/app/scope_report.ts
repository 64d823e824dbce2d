/**
 * The text of `--scope` and `/scope`: the effective authority of this run, read from where
 * it is enforced (Deno's permissions, the bash sandbox's arguments, the workspace's roots).
 *
 * @module
 */
import { type Locations, queryGrants } from "../config/mod.ts";
import type { Settings } from "../settings/mod.ts";
import { agentScopeLines, type AgentScopeSources } from "./agent_scope_report.ts";
import { HOOKS_WIDTH, hookScopeRows } from "./hook_scope_report.ts";
import { sanitizeLine, wrapText } from "../terminal/mod.ts";
import {
  describeSandbox,
  IGNORE_FILE,
  type Sandbox,
  SANDBOX_PROGRAMS,
  type SandboxReport,
  type Workspace,
} from "../tools/mod.ts";

/** What the report is read from. */
export interface ScopeSources {
  locations: Locations;
  workspace: Workspace;
  /** What bash runs through; undefined when the standard tools were replaced. */
  sandbox: Sandbox | undefined;
  /** The run's settings: the files read and what they open. */
  settings?: Settings;
  /** The subagents' scopes, when they are to be shown (`--scope`). */
  agents?: AgentScopeSources;
}

/** A label this wide or wider hangs its continuation rows at this indent instead. */
const MAX_HANG = 24;
const NARROW_HANG = 4;

/**
 * The scope report, one fact a line, paths shown with their control characters visible;
 * with a `width` (a terminal's), each fact is word-wrapped to it under its value.
 * Contract: changes nothing on disk; asks Deno and the sandbox at the moment it is called.
 */
export async function scopeReport(sources: ScopeSources, width?: number): Promise<string> {
  const { locations, workspace } = sources;
  const roots = workspace.roots.map((root) => root.real);
  const { ignore } = workspace;
  const ignoreFile = `${workspace.root}/${IGNORE_FILE}`;
  const lines = [
    `powercode scope (${locations.mode === "project" ? "project mode" : "workspace layout"})`,
    "Roots (the tools work here, the first is the working directory):",
    ...roots.map((root) => `  ${root}`),
    `Provider file:   ${locations.providerFile}`,
    `State directory: ${locations.stateDir}`,
    `Ignore file:     ${ignoreFile} (${
      ignore.size === 0 ? "no patterns" : `${ignore.size} pattern${ignore.size === 1 ? "" : "s"}`
    })`,
    "Deno permissions of this process (as Deno.permissions reports them):",
    ...queryGrants(locations, SANDBOX_PROGRAMS).map(({ kind, grants }) => {
      const groups = (["granted", "not granted", "denied"] as const).flatMap((state) => {
        const targets = grants.filter((grant) => grant.state === state).map((g) => g.target);
        return targets.length === 0 ? [] : [`${state}: ${targets.join(", ")}`];
      });
      return `  ${kind.padEnd(6)} ${groups.join(" · ")}`;
    }),
    ...(sources.settings ? settingsLines(sources.settings) : []),
    ...(sources.sandbox
      ? sandboxLines(await describeSandbox(sources.sandbox), sources.sandbox.hosts)
      : []),
    ...(sources.sandbox?.mode === "bwrap" ? commandLines(sources.sandbox) : []),
  ];
  // The hooks lay themselves out (within 80 columns even on a pipe), under the sandbox.
  const hooks = sources.settings ? hookScopeRows(sources.settings.hooks, width ?? HOOKS_WIDTH) : [];
  const agents = sources.agents ? await agentScopeLines(sources.agents) : [];
  const laid = (facts: string[]) => {
    const safe = facts.map(sanitizeLine);
    return width === undefined ? safe : safe.flatMap((line) => hang(line, width));
  };
  return [...laid(lines), ...hooks, ...laid(agents)].join("\n");
}

/** `label: value` wrapped so that the value's later rows start under its first. */
function hang(line: string, width: number): string[] {
  const label = /^\s*[^:]{1,60}?:\s+/.exec(line)?.[0] ?? /^\s*/.exec(line)?.[0] ?? "";
  const indent = label.length < MAX_HANG ? label.length : NARROW_HANG;
  const [first = "", ...rest] = wrapText(line.slice(label.length), Math.max(20, width - indent));
  const firstRows = wrapText(`${label}${first}`, width);
  return [...firstRows, ...rest.map((row) => `${" ".repeat(indent)}${row}`)];
}

function settingsLines(settings: Settings): string[] {
  return [
    "Settings files:",
    ...settings.files.map(({ path, state }) => `  ${path} (${state})`),
  ];
}

/** What a command sees beyond the mounts: PATH, the user's variables, the network. */
function commandLines(sandbox: Sandbox): string[] {
  const names = Object.keys(sandbox.env).filter((name) =>
    !["PATH", "HOME", "LANG", "TERM", "NO_PROXY", "no_proxy"].includes(name)
  );
  return [
    `  PATH:          ${sandbox.env.PATH ?? ""}`,
    `  your variables: ${names.length === 0 ? "none" : names.join(", ")}`,
    `  allowed hosts: ${
      sandbox.hosts.length === 0
        ? "none (no network)"
        : `${sandbox.hosts.join(", ")} (HTTP and HTTPS through powercode's proxy; every ` +
          "other host and address refused)"
    }`,
  ];
}

function sandboxLines(report: SandboxReport, hosts: readonly string[]): string[] {
  const { scope } = report;
  switch (report.mode) {
    case "unsandboxed":
      return ["Bash: NOT sandboxed (--unsandboxed-bash): commands run with your full rights"];
    case "unavailable":
      return ["Bash: disabled (bubblewrap cannot create a sandbox here): every call is refused"];
    case "bwrap":
      break;
    default: {
      const never: never = report.mode;
      return never;
    }
  }
  if (scope === undefined) return [];
  const git = report.gitControl === "protected" && report.workspace === "rw"
    ? ["every .git and git directory of each root"]
    : [];
  const list = (items: readonly string[]) => items.length === 0 ? "none" : items.join(", ");
  return [
    "Bash sandbox (bubblewrap), for a command started now:",
    `  read-write:    ${list(scope.readWrite)}`,
    `  read-only:     ${list([...scope.readOnly, ...git])}`,
    `  masked (empty or unreadable, not writable): ${list(scope.masked)}`,
    `  private:       ${list(scope.private)}`,
    `  network:       ${
      !scope.namespaces.includes("net")
        ? "ON"
        : hosts.length === 0
        ? "off (own network namespace)"
        : "own network namespace; only powercode's proxy, for the allowed hosts below"
    }`,
    `  namespaces:    ${list(scope.namespaces)}`,
    `  capabilities:  ${scope.capabilitiesDropped ? "all dropped" : "KEPT"}`,
    `  socket filter: ${scope.seccomp ? `seccomp: ${report.filter}` : "none"}`,
    ...(scope.other.length > 0 ? [`  other bwrap options: ${scope.other.join(" ")}`] : []),
  ];
}
