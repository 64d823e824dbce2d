/**
 * Starts a subagent for the `task` tool: checks that the agent asks for no more than its
 * parent has (roots, tools, profile), assembles the child in its scope (an in-memory session,
 * its own tools, bash confined to its roots, read-only when asked) with a slice of the
 * parent's budget, runs the prompt and reports how it ended.
 *
 * @module
 */
import type { Sandbox, Tool, Workspace } from "../tools/mod.ts";
import type { Agent } from "../agent/mod.ts";
import { Spending } from "../context/mod.ts";
import type { CallDescription } from "../core/mod.ts";
import type { AgentDefinition, RunChild } from "../subagents/mod.ts";
import { delegation, keepsTool, TASK_TOOL } from "../subagents/mod.ts";
import type { Profiles } from "./profiles.ts";

/** A child to assemble: its scope, steps and setup, the rest as its parent's. */
export interface ChildRequest {
  /** Its roots (absolute, checked); empty: the parent's. */
  roots: readonly string[];
  /** Whether its commands reach the parent's allowed hosts (a read-only agent's do not). */
  network: boolean;
  profile: string;
  maxSteps?: number;
  setup: ChildSetup;
}

/** The parts of a child's assembly its runner uses. */
export interface ChildAssembly {
  agent: Agent;
  sandbox: Sandbox | undefined;
}

/** What a child is made from and checked against: its parent's parts. */
export interface ParentParts {
  /** 0 for the run's own agent, 1 for its child. */
  depth: number;
  /** The agents its `task` tool starts. */
  agents: readonly AgentDefinition[];
  /** The parent's session file now, named in the child's header (undefined: not saved). */
  sessionId: () => string | undefined;
  workspace: Workspace;
  spending: Spending;
  profiles: Profiles;
  /** The profile the parent runs on now. */
  profile: () => string;
  /** The names of the parent's tools now. */
  toolNames: () => readonly string[];
  /** Assembles a child like its parent, within `request`. */
  assemble: (request: ChildRequest) => Promise<ChildAssembly>;
}

/** What a child assembly gets beyond the ordinary options. */
export interface ChildSetup {
  /** Its slice of the parent's budget. */
  spending: Spending;
  /** The agent's instructions, a section of its system prompt. */
  instructions: { heading: string; text: string };
  /** Whether it keeps `tool`; `confined` when the tool's commands run in its sandbox. */
  keep: (tool: Tool, confined: boolean) => boolean;
  /** 1 for a child of the run's agent, 2 for a child's child. */
  depth: number;
  /** Why it gets no `task` tool, the result of its calls of it; undefined: it gets one. */
  withheld?: string;
  /** Its parent's session, named in its session file's header. */
  parentSession?: string;
  /** The agents its own `task` tool starts: its parent's. */
  agents: readonly AgentDefinition[];
}

/** The child's scope, once checked against the parent's. */
interface ChildScope {
  /** Its roots as the parent's workspace resolved them; empty: the parent's own. */
  roots: string[];
  profile: string;
  network: boolean;
}

/**
 * The runner of the `task` tool's children under `parent`.
 * Contract: refuses (throws one line naming the agent's file and field) roots outside the
 * parent's roots, tools the parent lacks or a read-only agent cannot have, `task` below
 * the deepest depth (`MAX_DEPTH`), and unknown profiles; the child never asks the user (its
 * questions are refused with the reason); it saves its session beside its parent's, the
 * header naming the parent's; it may start children of its own only at depth 1, when it may
 * change things (see `delegation`).
 */
export function childRunner(parent: ParentParts): RunChild {
  return async (agent, task, context) => {
    // Made before the first wait, so that the parent's report lists children in call order.
    const spending = new Spending({
      limits: agent.budget ?? {},
      parent: parent.spending,
      label: `${agent.name} · ${task.description}`,
    });
    const scope = await checkScope(agent, parent);
    const refusedTools = new Set<string>();
    const keep = (tool: Tool, confined: boolean) => {
      const kept = keepsTool(agent, tool, confined);
      if (!kept && agent.tools?.includes(tool.name)) refusedTools.add(tool.name);
      return kept;
    };
    const depth = parent.depth + 1;
    const delegates = delegation(agent, depth);
    const parentSession = parent.sessionId();
    const assembly = await parent.assemble({
      ...scope,
      ...(agent.maxSteps !== undefined ? { maxSteps: agent.maxSteps } : {}),
      setup: {
        spending,
        instructions: { heading: `Agent "${agent.name}"`, text: agent.instructions },
        keep,
        depth,
        agents: parent.agents,
        ...(delegates.allowed ? {} : { withheld: delegates.reason }),
        ...(parentSession !== undefined ? { parentSession } : {}),
      },
    });
    try {
      const named = agent.tools?.find((name) => refusedTools.has(name));
      if (named !== undefined) {
        throw new Error(
          `${refusal(agent)}: field "tools" names "${named}", which a read-only agent cannot have`,
        );
      }
      if (agent.readOnly && assembly.sandbox) assembly.sandbox.workspace = "ro";
      const { agent: child } = assembly;
      let step = 0;
      child.subscribe((event) => {
        if (event.type === "thinking") {
          step++;
          context.onOutput?.(`step ${step} · thinking\n`);
        } else if (event.type === "tool_start") {
          const shownCall = `${event.call.name} ${shown(event.description)}`.trimEnd();
          context.onOutput?.(`step ${step} · ● ${shownCall}\n`);
        }
      });
      const result = await child.run(task.prompt, context.signal);
      // Its row says so while the calls before it still run.
      context.onOutput?.(`step ${step} · ${result.status === "done" ? "answered" : "stopped"}\n`);
      const { session } = spending.report();
      const id = child.view.id;
      const spent = {
        steps: session.steps,
        tokens: session.promptTokens + session.completionTokens,
        ...(id !== undefined ? { session: id } : {}),
      };
      switch (result.status) {
        case "done":
          return { status: "done", text: result.answer, ...spent };
        case "interrupted":
          return { status: "stopped", text: "The subagent was interrupted", ...spent };
        case "budget":
          return { status: "stopped", text: `The subagent stopped: ${result.error}`, ...spent };
        case "failed":
        case "step_limit":
          return { status: "stopped", text: `The subagent stopped: ${result.error}`, ...spent };
        default: {
          const never: never = result;
          return never;
        }
      }
    } finally {
      assembly.agent.close();
    }
  };
}

async function checkScope(agent: AgentDefinition, parent: ParentParts): Promise<ChildScope> {
  const profile = agent.profile ?? parent.profile();
  if (!parent.profiles.has(profile)) {
    throw new Error(
      `${
        refusal(agent)
      }: field "profile" "${profile}" is no profile of "${parent.profiles.configFile}"`,
    );
  }
  const tools = toolsProblem(agent, parent.toolNames(), parent.depth + 1);
  if (tools !== undefined) throw new Error(tools);
  const roots = await childRoots(agent, parent.workspace);
  if (typeof roots === "string") throw new Error(roots);
  return { roots, profile, network: !agent.readOnly };
}

/**
 * The one line that refuses the `tools` of `agent` started at `depth` by a parent that has
 * `parentTools`: a tool the parent lacks, or `task` where it may not start subagents;
 * undefined when they are a subset.
 * Contract: pure.
 */
export function toolsProblem(
  agent: AgentDefinition,
  parentTools: readonly string[],
  depth: number,
): string | undefined {
  const missing = agent.tools?.find((name) => !parentTools.includes(name));
  if (missing !== undefined) {
    return `${refusal(agent)}: field "tools" names "${missing}", which it cannot have`;
  }
  const delegates = delegation(agent, depth);
  if (agent.tools?.includes(TASK_TOOL) && !delegates.allowed) {
    return `${refusal(agent)}: field "tools" names "${TASK_TOOL}", which it cannot have: ` +
      delegates.reason;
  }
  return undefined;
}

/**
 * The roots `agent` asks for, resolved in `workspace` (empty: the parent's own), or the one
 * line that refuses them: a path that is no directory inside the parent's roots, or any
 * roots when the workspace has a `.powercodeignore`.
 */
export async function childRoots(
  agent: AgentDefinition,
  workspace: Workspace,
): Promise<string[] | string> {
  if (!agent.roots) return [];
  if (workspace.ignore.size > 0) {
    return `${refusal(agent)}: field "roots" cannot narrow a workspace that has a .powercodeignore`;
  }
  const roots: string[] = [];
  for (const root of agent.roots) {
    const path = await workspace.resolve(root).catch(() => undefined);
    const isDirectory = path !== undefined &&
      await Deno.stat(path).then((info) => info.isDirectory, () => false);
    if (!isDirectory) {
      return `${refusal(agent)}: field "roots" names "${root}", which is no directory inside ` +
        "the parent's roots";
    }
    roots.push(path);
  }
  return roots;
}

/** The start of every refusal line of `agent`: `Cannot start agent "NAME" (SOURCE)`. */
export function refusal(agent: AgentDefinition): string {
  return `Cannot start agent "${agent.name}" (${agent.source})`;
}

function shown(description: CallDescription): string {
  return description.kind === "text" ? description.text.split("\n")[0] ?? "" : "";
}
