/**
 * The subagents' part of `--scope`: for each agent the `task` tool starts, its roots, whether
 * it is read-only, the hosts its commands reach and its tools, computed by the rules that
 * assemble a child; an agent that asks for more than the run has is shown refused.
 *
 * @module
 */
import type { ToolEffect } from "../core/mod.ts";
import type { Workspace } from "../tools/mod.ts";
import {
  type AgentDefinition,
  delegation,
  keepsTool,
  loadAgents,
  MAX_DEPTH,
  TASK_TOOL,
} from "../subagents/mod.ts";
import type { SetupPlaces } from "../setup/mod.ts";
import { childRoots, refusal, toolsProblem } from "./child_agent.ts";

/** What the agents' scopes are computed from: the run's own. */
export interface AgentScopeSources {
  agents: readonly AgentDefinition[];
  workspace: Workspace;
  /** The run's tools, without `task` (which the agents' depth decides). */
  tools: readonly { name: string; effect: ToolEffect }[];
  /** Whether a tool's commands run in the sandbox. */
  confines: (name: string) => boolean;
  /** The hosts the run's commands may reach. */
  hosts: readonly string[];
}

/**
 * The sources of a run that has not assembled an agent (`--scope`): the agents of `places`
 * (a bad file is skipped with one `warn` line) over the run's tools.
 */
export async function agentScopeSources(
  places: SetupPlaces,
  run: Omit<AgentScopeSources, "agents" | "workspace">,
  warn: (line: string) => void,
): Promise<AgentScopeSources> {
  return { agents: await loadAgents(places, warn), workspace: places.workspace, ...run };
}

/**
 * The lines of the agents' scopes, each a subset of the run's (children of the run, depth 1).
 * Contract: changes nothing on disk; the profile an agent names is not checked (the provider
 * file is not read).
 */
export async function agentScopeLines(sources: AgentScopeSources): Promise<string[]> {
  const { workspace } = sources;
  const lines = [`Subagents (the ${TASK_TOOL} tool; each within this run's scope):`];
  const runRoots = workspace.roots.map((root) => root.real);
  const names = [...sources.tools.map((tool) => tool.name), TASK_TOOL];
  for (const agent of sources.agents) {
    const head = `  ${agent.name} (${agent.source})`;
    const roots = await childRoots(agent, workspace);
    const problem = typeof roots === "string" ? roots : toolsProblem(agent, names, 1);
    if (problem !== undefined || typeof roots === "string") {
      lines.push(`${head}: refused: ${(problem ?? "").slice(`${refusal(agent)}: `.length)}`);
      continue;
    }
    const tools = sources.tools
      .filter((tool) => keepsTool(agent, tool, sources.confines(tool.name)))
      .map((tool) => tool.name);
    const delegates = delegation(agent, 1);
    const shownRoots = (roots.length > 0 ? roots : runRoots).join(", ");
    lines.push(
      `${head}:`,
      `    roots:     ${shownRoots}${agent.readOnly ? " (read-only)" : ""}`,
      `    read-only: ${agent.readOnly ? "yes (its bash sees every root read-only)" : "no"}`,
      `    hosts:     ${
        agent.readOnly || sources.hosts.length === 0
          ? "none (no network)"
          : sources.hosts.join(", ")
      }`,
      `    tools:     ${[...tools, ...delegates.allowed ? [TASK_TOOL] : []].join(", ")}`,
      `    subagents: ${
        delegates.allowed
          ? `yes, which start none (at most ${MAX_DEPTH} levels)`
          : `none: ${delegates.reason}`
      }`,
    );
  }
  return lines;
}
