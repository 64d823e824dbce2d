/**
 * Sessions: the conversation in memory and its append-only JSONL file on disk.
 *
 * @module
 */
export { newSession, openSession } from "./open.ts";
export type { OpenSessionOptions, SessionChoice } from "./open.ts";
export { Session, type SessionView } from "./session.ts";
export type {
  CompactionState,
  ModelRecord,
  PathsOf,
  PlanRecord,
  SessionOptions,
  SessionRecord,
  SessionSink,
  UsageSnapshot,
} from "./session.ts";
export type { TodoOf } from "./todo_tracker.ts";
export type { PrefixMiss, PrefixSummary, RequestRecord, SegmentText } from "./prefix_log.ts";
export { ROOT_ENTRY, type SessionEntry } from "./session_tree.ts";
export type { Redoable, TaskMark, TreeMove } from "./task_records.ts";
export { SessionError, SessionFile, SessionStore } from "./store.ts";
export type { LoadedSession, SessionHeader, SessionInfo } from "./store.ts";
