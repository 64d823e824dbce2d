/**
 * The vocabulary every layer shares: messages, tool calls and results, agent events, value
 * checks.
 *
 * @module
 */
export {
  hasShape,
  isArrayOf,
  isBoundedJson,
  isCount,
  isObject,
  isPositiveInteger,
  isString,
  type JsonBounds,
  optional,
  parseJsonObject,
  type Shape,
} from "./check.ts";
export { type Delay, delay } from "./delay.ts";
export { type Watchdog, watchdog } from "./watchdog.ts";
export { writeOnceSync } from "./write_once.ts";
export {
  describeImage,
  type ImageHeader,
  imageHeader,
  type ImageMediaType,
  imageOf,
  type ImageRef,
  looksLikeImage,
  MAX_IMAGE_BYTES,
  MAX_IMAGES,
  type MessageImage,
} from "./image.ts";
export {
  type AgentEvent,
  type CompactionEvent,
  type CompactionReason,
  EventChannel,
  type EventSink,
  type PermissionEvent,
} from "./events.ts";
export {
  type AssistantMessage,
  firstTyped,
  isNote,
  type Message,
  NOTE_PREFIX,
  type ToolCall,
  type ToolDefinition,
  type ToolResultMessage,
  type UserMessage,
} from "./messages.ts";
export { parseToolArguments } from "./tool_arguments.ts";
export {
  type BudgetLimits,
  type ChildSpend,
  costOf,
  emptyTally,
  formatUsd,
  type Pricing,
  type SpendReport,
  type Tally,
  tallyTokens,
} from "./spend.ts";
export {
  type CallDescription,
  type CommandEnd,
  type ToolDetails,
  type ToolEffect,
  type ToolResult,
} from "./tool_result.ts";
export {
  checklistLines,
  parseChecklist,
  TODO_FILE,
  TODO_STATUSES,
  todoFileText,
  type TodoItem,
  todoProgress,
  type TodoStatus,
} from "./todo.ts";
export { utf8Length } from "./utf8.ts";
export {
  formatSize,
  MAX_BYTES,
  MAX_LINES,
  TailBuffer,
  truncate,
  type Truncation,
} from "./truncate.ts";
export { type HostPattern, matchHost, parseHostPattern } from "./host_pattern.ts";
