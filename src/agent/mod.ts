/**
 * The agent loop, its notes to the model and the system prompt.
 *
 * @module
 */
export { Agent, INTERRUPTED_RESULT, type RunOptions, type TaskResult } from "./agent.ts";
export type { ModelSlot } from "./model_slot.ts";
export { buildSystemPrompt, type PromptSection } from "./system_prompt.ts";
export { isNote, NO_REPLY, type NoteSummary, noteSummary } from "./task_notes.ts";
export type { PlanSwitch } from "./plan_mode.ts";
export { parseShellNote, shellNote } from "./shell_note.ts";
export {
  NO_TASK_HOOKS,
  type PromptVerdict,
  type SessionSource,
  type TaskHooks,
} from "./task_hooks.ts";
