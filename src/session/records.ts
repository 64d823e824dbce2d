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
  isBoundedJson,
  isCount,
  isObject,
  isPositiveInteger,
  isString,
  optional,
  type Shape,
} from "../core/mod.ts";
import type { SessionRecord } from "./session.ts";
import type { SessionHeader, SessionVersion } from "./header.ts";

export { SESSION_VERSION, type SessionHeader, type SessionVersion } from "./header.ts";

/** What a provider field kept with a tool call may be: as deep and large as a reply's may. */
const EXTRA_BOUNDS = { maxDepth: 17, maxChars: 512 * 1024 };

const TOOL_CALL: Shape = {
  id: isString,
  name: isString,
  arguments: isString,
  extra: optional((v) => isObject(v) && isBoundedJson(v, EXTRA_BOUNDS)),
};
const IMAGE_REF: Shape = {
  hash: (v) => isString(v) && /^[0-9a-f]{64}$/.test(v),
  mediaType: (v) => ["image/png", "image/jpeg", "image/gif", "image/webp"].includes(v as string),
  width: isCount,
  height: isCount,
};
const MESSAGE_SHAPES = new Map<unknown, Shape>([
  ["user", {
    content: isString,
    shown: optional(isString),
    images: optional((v) => isArrayOf(v, IMAGE_REF)),
  }],
  ["assistant", {
    content: isString,
    toolCalls: (v) => isArrayOf(v, TOOL_CALL),
    reasoning: optional(isString),
    replayReasoning: optional((v) => v === true),
    thinkBlock: optional(isString),
    model: optional(isString),
  }],
  ["tool", {
    toolCallId: isString,
    content: isString,
    isError: isBoolean,
    session: optional(isString),
  }],
]);
const USAGE: Shape = {
  totalTokens: isCount,
  historyLength: isCount,
  overhead: optional((v) => isString(v) && v.length <= 64),
};
const STATE: Shape = { summary: isString, compactedUntil: isCount };
const RECORD_SHAPES = new Map<unknown, Shape>([
  ["message", { message: (v) => isObject(v) && hasShape(v, MESSAGE_SHAPES.get(v.role)) }],
  ["usage", { usage: (v) => v === null || hasShape(v, USAGE) }],
  ["compaction", { state: (v) => hasShape(v, STATE), tokensBefore: isCount, tokensAfter: isCount }],
  ["model", { profile: isString }],
  ["plan", { on: isBoolean }],
  ["task_start", { tree: isTreeOrNull }],
  ["task_end", { tree: isTreeOrNull }],
  ["undo", {
    keep: optional(isCount),
    files: optional((v) => hasShape(v, { from: isTreeId, to: isTreeId })),
    from: optional(isPositiveInteger),
  }],
  ["redo", { tree: optional(isTreeId), branch: optional((v) => v === true) }],
  ["request", {
    keep: isCount,
    add: (v) =>
      Array.isArray(v) && v.every((hash) => isString(hash) && /^[0-9a-f]{16}$/.test(hash)),
    prompt: optional(isCount),
    cached: optional(isCount),
    miss: optional((v) =>
      hasShape(v, {
        segment: isCount,
        name: isString,
        byte: optional(isCount),
        after: optional((after) => after === "compaction" || after === "model" || after === "undo"),
      })
    ),
  }],
  ["permission", {
    callId: isString,
    tool: isString,
    subject: isString,
    question: isString,
    answer: isString,
    detail: optional(isString),
  }],
]);
const HEADER: Shape = {
  id: isString,
  created: isString,
  model: isString,
  roots: optional((value) => Array.isArray(value) && value.every(isString)),
  origin: optional((value) => value === "print"),
  parentSession: optional(isString),
};

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

/** Whether `version` is one this code reads. */
export function isSessionVersion(version: unknown): version is SessionVersion {
  return version === 1 || version === 2 || version === 3;
}

/**
 * Checks a parsed first line against {@link SessionHeader}, including the version.
 * Contract: pure.
 */
export function isSessionHeader(
  value: Record<string, unknown>,
): value is Record<string, unknown> & SessionHeader {
  return value.type === "session" && isSessionVersion(value.version) && hasShape(value, HEADER);
}

/**
 * A line of a version 1 file as version 2 has it: a tool result without `isError` gets it,
 * derived from the one mark version 1 had: its text starts with "Error:". The only place
 * where a result's text decides whether it failed.
 * Contract: pure; any other value is returned as it is, for the record checks to judge.
 */
export function fromVersion1(value: Record<string, unknown>): Record<string, unknown> {
  const { message } = value;
  if (value.type !== "message" || !isObject(message) || message.role !== "tool") return value;
  if (message.isError !== undefined || typeof message.content !== "string") return value;
  return { ...value, message: { ...message, isError: message.content.startsWith("Error:") } };
}

/** A workspace snapshot's id: the hex digest the undo layer's store names it by. */
function isTreeId(value: unknown): value is string {
  return typeof value === "string" && /^[0-9a-f]{16,128}$/.test(value);
}

function isTreeOrNull(value: unknown): boolean {
  return value === null || isTreeId(value);
}

function isBoolean(value: unknown): value is boolean {
  return typeof value === "boolean";
}
