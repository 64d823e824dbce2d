/**
 * What an agent keeps of its parent's tools, and whether it may start subagents of its own:
 * one rule for the child's assembly and for `--scope`.
 *
 * @module
 */
import type { ToolEffect } from "../core/mod.ts";
import type { AgentDefinition } from "./agent_definition.ts";
import { TASK_TOOL } from "./task_tool.ts";

/** The deepest agent: the parent's child is at depth 1, its children at depth 2, no deeper. */
export const MAX_DEPTH = 2;

/**
 * Whether `agent` keeps a tool of its parent's: one its `tools` name (all without the field),
 * and, when it is read-only, only tools that read or whose commands run in its (read-only)
 * sandbox (`confined`). The `task` tool is decided by {@linkcode delegation}.
 * Contract: pure.
 */
export function keepsTool(
  agent: AgentDefinition,
  tool: { name: string; effect: ToolEffect },
  confined: boolean,
): boolean {
  const named = agent.tools ? agent.tools.includes(tool.name) : true;
  const readOnly = !agent.readOnly || tool.effect === "read" ||
    (tool.effect === "exec" && confined);
  return named && readOnly;
}

/**
 * Whether a child of `agent` at `depth` gets the `task` tool: below the deepest level, when
 * it may change things and its `tools` name `task` or are not given; else the one line its
 * calls of `task` get.
 * Contract: pure.
 */
export function delegation(
  agent: AgentDefinition,
  depth: number,
): { allowed: true } | { allowed: false; reason: string } {
  if (depth >= MAX_DEPTH) {
    return {
      allowed: false,
      reason: `a subagent's subagent cannot start subagents (at most ${MAX_DEPTH} levels)`,
    };
  }
  if (agent.readOnly) {
    return { allowed: false, reason: `agent "${agent.name}" is read-only: it starts no subagents` };
  }
  if (agent.tools && !agent.tools.includes(TASK_TOOL)) {
    return { allowed: false, reason: `agent "${agent.name}" has no "${TASK_TOOL}" in its tools` };
  }
  return { allowed: true };
}
