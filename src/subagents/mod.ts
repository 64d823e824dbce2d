/**
 * Subagents: the agents a session can start (the built-in `explore`, agent files) and the
 * `task` tool that runs one as a child in a scope and budget no larger than its parent's.
 *
 * @module
 */
export { type AgentDefinition, agentFromFrontmatter, EXPLORE } from "./agent_definition.ts";
export { loadAgents, PROJECT_AGENTS_DIR } from "./agent_files.ts";
export {
  type ChildOutcome,
  type ChildTask,
  createTaskTool,
  type RunChild,
  TASK_TOOL,
} from "./task_tool.ts";
export { delegation, keepsTool, MAX_DEPTH } from "./agent_scope.ts";
