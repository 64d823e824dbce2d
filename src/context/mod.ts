/**
 * What the model sees: the working memory built from a session, compacted into a summary
 * by one model call when it nears the context window.
 *
 * @module
 */
export { Compactor } from "./compactor.ts";
export type {
  CompactionOutcome,
  CompactOptions,
  CompactorOptions,
  ContextStatus,
  PreparedRequest,
} from "./compactor.ts";
export { requestStep, type RequestStepOptions, type StepOutcome } from "./request_step.ts";
export {
  compactionThreshold,
  resolveCompactionSettings,
  validateCompactionSettings,
} from "./settings.ts";
export type { CompactionSettings, CompactionSettingsInput } from "./settings.ts";
export { estimateImageTokens, estimateRequestTokens, estimateTextTokens } from "./tokens.ts";
export { messageRoom } from "./message_room.ts";
export {
  type MeteredKind,
  OUTPUT_ALLOWANCE_TOKENS,
  Spending,
  type SpendingOptions,
} from "./spending.ts";
export type { RequestOverhead } from "./tokens.ts";
export { buildWorkingMemory } from "./working_memory.ts";
