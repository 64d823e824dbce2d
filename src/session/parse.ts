/**
 * Reading a session file's bytes back into records: one JSON value per line, the header
 * first, every record checked for its shape and against the records before it.
 *
 * @module
 */
import { isObject } from "../core/mod.ts";
import { RecordOrder } from "./record_order.ts";
import {
  fromVersion1,
  isRecordType,
  isSessionHeader,
  isSessionRecord,
  isSessionVersion,
  type SessionHeader,
} from "./records.ts";
import type { SessionRecord } from "./session.ts";
import { entryPath, leaves, ROOT_ENTRY, type SessionEntry } from "./session_tree.ts";
import { SessionError } from "./session_error.ts";

/**
 * A parsed session file: `records` are those on the path to the last line, `entries` every
 * record with its place in the tree; `keptBytes`: the file's bytes before a torn last line.
 */
export interface ParsedSession {
  header: SessionHeader;
  records: SessionRecord[];
  entries: SessionEntry<SessionRecord>[];
  warnings: string[];
  keptBytes: number;
}

const NEWLINE = 0x0a;

/**
 * Parses the bytes of session file `path`.
 * Contract: a torn last line (not JSON) is left out with a warning; any other problem throws
 * a `SessionError` "Cannot load session "<path>": line N …" naming the first bad line.
 */
export function parseSession(bytes: Uint8Array, path: string): ParsedSession {
  const fail = (reason: string) => new SessionError(`Cannot load session "${path}": ${reason}`);
  const body = bytes.at(-1) === NEWLINE ? bytes.subarray(0, -1) : bytes;
  const lines = new TextDecoder().decode(body).split("\n");
  const values: unknown[] = [];
  const warnings: string[] = [];
  let keptBytes = bytes.length;
  for (const [index, line] of lines.entries()) {
    try {
      values.push(JSON.parse(line));
    } catch {
      if (index < lines.length - 1) throw fail(`line ${index + 1} is not valid JSON`);
      // Only the tail can be torn: lines are appended in order and `load` cuts a torn tail.
      keptBytes = body.lastIndexOf(NEWLINE) + 1;
      warnings.push(`Skipped a torn last line in "${path}" (crash while writing?)`);
    }
  }
  const [first, ...rest] = values;
  if (!isObject(first) || first.type !== "session") throw fail("line 1 is not a session header");
  if (!isSessionVersion(first.version)) {
    throw fail(`line 1 has unsupported version ${JSON.stringify(first.version)}`);
  }
  if (!isSessionHeader(first)) throw fail("line 1 is not a valid session header");
  const entries = rest.map((parsed, index): SessionEntry<SessionRecord> => {
    const line = index + ROOT_ENTRY + 1;
    if (!isObject(parsed)) throw fail(`line ${line} is not a JSON object`);
    const { parent = line - 1, ...value } = first.version === 1 ? fromVersion1(parsed) : parsed;
    if (
      !Number.isInteger(parent) || (parent as number) < ROOT_ENTRY || (parent as number) >= line
    ) {
      throw fail(`line ${line} has parent ${JSON.stringify(parent)}, which is no earlier line`);
    }
    if (!isRecordType(value.type)) {
      throw fail(`line ${line} has unknown record type ${JSON.stringify(value.type)}`);
    }
    if (!isSessionRecord(value)) throw fail(`line ${line} is not a valid "${value.type}" record`);
    return { id: line, parent: parent as number, record: value };
  });
  // Every branch is checked to its end, so continuing from any entry gives a valid session.
  for (const leaf of leaves(entries)) {
    const problem = orderProblem(entries, leaf);
    if (problem !== undefined) throw fail(problem);
  }
  const records = entryPath(entries, entries.at(-1)?.id ?? ROOT_ENTRY);
  return { header: first, records, entries, warnings, keptBytes };
}

/**
 * What is wrong with the records on the path to entry `id`, checked in order, naming the
 * line; undefined when nothing is.
 */
function orderProblem(
  entries: readonly SessionEntry<SessionRecord>[],
  id: number,
): string | undefined {
  const lines: SessionEntry<SessionRecord>[] = [];
  for (let at = id; at !== ROOT_ENTRY;) {
    const entry = entries[at - ROOT_ENTRY - 1];
    if (entry === undefined) return `entry ${at} does not exist`;
    lines.push(entry);
    at = entry.parent;
  }
  const order = new RecordOrder();
  for (const entry of lines.reverse()) {
    const problem = order.next(entry.record);
    if (problem !== undefined) return `line ${entry.id} ${problem}`;
  }
  return undefined;
}
