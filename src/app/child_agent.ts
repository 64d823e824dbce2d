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
import { TASK_TOOL } from "../subagents/mod.ts";
import type { Profiles } from "./profiles.ts";

/** A child to assemble: its scope, steps and setup, the rest as its parent's. */
export interface ChildRequest {
  /** Its roots (absolute, checked); empty: the parent's. */
  roots: readonly string[];
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
}

/** The child's scope, once checked against the parent's. */
interface ChildScope {
  /** Its roots as the parent's workspace resolved them; empty: the parent's own. */
  roots: string[];
  profile: string;
}

/**
 * The runner of the `task` tool's children under `parent`.
 * Contract: refuses (throws one line naming the agent's file and field) roots outside the
 * parent's roots, tools the parent lacks or a read-only agent cannot have, and unknown
 * profiles; the child never asks the user (its questions are refused with the reason) and
 * cannot start children of its own.
 */
export function childRunner(parent: ParentParts): RunChild {
  return async (agent, prompt, context) => {
    const scope = await checkScope(agent, parent);
    const spending = new Spending({ limits: agent.budget ?? {}, parent: parent.spending });
    const refusedTools = new Set<string>();
    const keep = (tool: Tool, confined: boolean) => {
      const allowed = agent.tools ? agent.tools.includes(tool.name) : true;
      const readOnly = !agent.readOnly || tool.effect === "read" ||
        (tool.effect === "exec" && confined);
      if (allowed && !readOnly) refusedTools.add(tool.name);
      return allowed && readOnly;
    };
    const assembly = await parent.assemble({
      ...scope,
      ...(agent.maxSteps !== undefined ? { maxSteps: agent.maxSteps } : {}),
      setup: {
        spending,
        instructions: { heading: `Agent "${agent.name}"`, text: agent.instructions },
        keep,
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
      child.subscribe((event) => {
        if (event.type !== "tool_start") return;
        context.onOutput?.(`● ${event.call.name} ${shown(event.description)}\n`);
      });
      const result = await child.run(prompt, context.signal);
      const { session } = spending.report();
      const spent = {
        steps: session.steps,
        tokens: session.promptTokens + session.completionTokens,
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
  const tools = parent.toolNames();
  const missing = agent.tools?.find((name) => name === TASK_TOOL || !tools.includes(name));
  if (missing !== undefined) {
    throw new Error(`${refusal(agent)}: field "tools" names "${missing}", which it cannot have`);
  }
  if (!agent.roots) return { roots: [], profile };
  const { workspace } = parent;
  if (workspace.ignore.size > 0) {
    throw new Error(
      `${refusal(agent)}: field "roots" cannot narrow a workspace that has a .powercodeignore`,
    );
  }
  const roots: string[] = [];
  for (const root of agent.roots) {
    const path = await workspace.resolve(root).catch(() => undefined);
    const isDirectory = path !== undefined &&
      await Deno.stat(path).then((info) => info.isDirectory, () => false);
    if (!isDirectory) {
      throw new Error(
        `${
          refusal(agent)
        }: field "roots" names "${root}", which is no directory inside the parent's roots`,
      );
    }
    roots.push(path);
  }
  return { roots, profile };
}

function refusal(agent: AgentDefinition): string {
  return `Cannot start agent "${agent.name}" (${agent.source})`;
}

function shown(description: CallDescription): string {
  return description.kind === "text" ? description.text.split("\n")[0] ?? "" : "";
}
