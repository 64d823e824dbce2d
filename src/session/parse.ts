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

/** A session that cannot be resumed: missing, damaged, inconsistent or in use. main exits 2. */
export class SessionError extends Error {
  /** Creates the error with a one-line message naming the session. */
  constructor(message: string) {
    super(message);
    this.name = "SessionError";
  }
}

/** A parsed session file; `keptBytes`: the file's bytes before a torn last line. */
export interface ParsedSession {
  header: SessionHeader;
  records: SessionRecord[];
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
  const order = new RecordOrder();
  const records = rest.map((parsed, index) => {
    const line = index + 2;
    if (!isObject(parsed)) throw fail(`line ${line} is not a JSON object`);
    const value = first.version === 1 ? fromVersion1(parsed) : parsed;
    if (!isRecordType(value.type)) {
      throw fail(`line ${line} has unknown record type ${JSON.stringify(value.type)}`);
    }
    if (!isSessionRecord(value)) throw fail(`line ${line} is not a valid "${value.type}" record`);
    const problem = order.next(value);
    if (problem !== undefined) throw fail(`line ${line} ${problem}`);
    return value;
  });
  return { header: first, records, warnings, keptBytes };
}
