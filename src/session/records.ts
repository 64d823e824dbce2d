/**
 * The shapes of session file lines: the {@link SessionHeader} on line 1 and one
 * {@link SessionRecord} on every further line, with the small checkers that narrow a
 * parsed line from `unknown`.
 *
 * @module
 */
import {
  hasShape,
  isArrayOf,
  isCount,
  isObject,
  isString,
  optional,
  type Shape,
} from "../core/mod.ts";
import type { SessionRecord } from "./session.ts";

/** The session file format version this code reads and writes. */
export const SESSION_VERSION = 1;

/** The first line of a session file. */
export interface SessionHeader {
  type: "session";
  version: 1;
  id: string;
  created: string;
  model: string;
}

const TOOL_CALL: Shape = {
  id: isString,
  name: isString,
  arguments: isString,
  extra: optional(isObject),
};
const MESSAGE_SHAPES = new Map<unknown, Shape>([
  ["user", { content: isString }],
  ["assistant", {
    content: isString,
    toolCalls: (v) => isArrayOf(v, TOOL_CALL),
    reasoning: optional(isString),
    replayReasoning: optional((v) => v === true),
    model: optional(isString),
  }],
  ["tool", { toolCallId: isString, content: isString }],
]);
const USAGE: Shape = { totalTokens: isCount, historyLength: isCount };
const STATE: Shape = { summary: isString, compactedUntil: isCount };
const RECORD_SHAPES = new Map<unknown, Shape>([
  ["message", { message: (v) => isObject(v) && hasShape(v, MESSAGE_SHAPES.get(v.role)) }],
  ["usage", { usage: (v) => v === null || hasShape(v, USAGE) }],
  ["compaction", { state: (v) => hasShape(v, STATE), tokensBefore: isCount, tokensAfter: isCount }],
  ["model", { profile: isString }],
]);
const HEADER: Shape = { id: isString, created: isString, model: isString };

/**
 * Checks `value` against the shape of its `type`; the tables above mirror SessionRecord.
 * Contract: pure; false for unknown record types.
 */
export function isSessionRecord(value: unknown): value is SessionRecord {
  return isObject(value) && hasShape(value, RECORD_SHAPES.get(value.type));
}

/** Whether `type` names a known record type, whatever the rest of the record holds. */
export function isRecordType(type: unknown): boolean {
  return RECORD_SHAPES.has(type);
}

/**
 * Checks a parsed first line against {@link SessionHeader}, including the version.
 * Contract: pure.
 */
export function isSessionHeader(
  value: Record<string, unknown>,
): value is Record<string, unknown> & SessionHeader {
  return value.type === "session" && value.version === SESSION_VERSION && hasShape(value, HEADER);
}
