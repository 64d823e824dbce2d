/**
 * The conversation: full append-only history, the last usage snapshot, the
 * compaction state and the files the agent has read or modified.
 *
 * @module
 */
import type { Message } from "../messages.ts";

/** `usage.total_tokens` of a reply, covering the working memory up to `historyLength` messages. */
export interface UsageSnapshot {
  totalTokens: number;
  historyLength: number;
}

/** Messages before `compactedUntil` are represented by `summary` in the working memory. */
export interface CompactionState {
  summary: string;
  compactedUntil: number;
}

/** One durable change to a session, in the order it happened. */
export type SessionRecord =
  | { type: "message"; message: Message }
  | { type: "usage"; usage: UsageSnapshot | null }
  | { type: "compaction"; state: CompactionState; tokensBefore: number; tokensAfter: number };

/** Receives every record as it happens (the session file). */
export interface SessionSink {
  write(record: SessionRecord): void;
  /** Releases the file; later writes fail. */
  close(): void;
}

const READ_TOOLS = new Set(["read_file"]);
const MODIFY_TOOLS = new Set(["write_file", "edit_file"]);

/**
 * In-memory session state, optionally mirrored to a sink.
 * Contract: history is append-only; only `applyCompaction` changes what the model sees.
 */
export class Session {
  #history: Message[] = [];
  #usage: UsageSnapshot | undefined;
  #compaction: CompactionState | undefined;
  #filesRead = new Set<string>();
  #filesModified = new Set<string>();
  #sink: SessionSink | undefined;

  /** Creates an empty session that writes each change to `sink` when given. */
  constructor(sink?: SessionSink) {
    this.#sink = sink;
  }

  /** Rebuilds a session from its records without writing them again. */
  static fromRecords(records: Iterable<SessionRecord>, sink?: SessionSink): Session {
    const session = new Session();
    for (const record of records) session.#apply(record);
    session.#sink = sink;
    return session;
  }

  /** The whole history; never copy it per step, use `recent()`. */
  get history(): readonly Message[] {
    return this.#history;
  }

  /** The last recorded usage, undefined when unknown or stale. */
  get usage(): UsageSnapshot | undefined {
    return this.#usage;
  }

  /** The current compaction state, undefined before the first compaction. */
  get compaction(): CompactionState | undefined {
    return this.#compaction;
  }

  /** Workspace paths given to read_file, in first-seen order. */
  get filesRead(): string[] {
    return [...this.#filesRead];
  }

  /** Workspace paths given to write_file or edit_file, in first-seen order. */
  get filesModified(): string[] {
    return [...this.#filesModified];
  }

  /** The messages after the compacted prefix; copies only that part. */
  recent(): Message[] {
    return this.#history.slice(this.#compaction?.compactedUntil ?? 0);
  }

  /** Closes the sink (the session file); call when switching to another session. */
  close(): void {
    this.#sink?.close();
  }

  /** Appends a message to history. */
  append(message: Message): void {
    this.#record({ type: "message", message });
  }

  /** Records the usage of the latest reply, or forgets it (`undefined`) when it cannot be trusted. */
  recordUsage(usage: UsageSnapshot | undefined): void {
    this.#record({ type: "usage", usage: usage ?? null });
  }

  /** Replaces the compaction state; the usage snapshot becomes stale. */
  applyCompaction(state: CompactionState, stats: { tokensBefore: number; tokensAfter: number }) {
    this.#record({ type: "compaction", state, ...stats });
  }

  #record(record: SessionRecord): void {
    this.#apply(record);
    this.#sink?.write(record);
  }

  #apply(record: SessionRecord): void {
    switch (record.type) {
      case "message":
        this.#history.push(record.message);
        if (record.message.role === "assistant") this.#trackFiles(record.message.toolCalls);
        return;
      case "usage":
        this.#usage = record.usage ?? undefined;
        return;
      case "compaction":
        this.#compaction = record.state;
        this.#usage = undefined;
        return;
      default: {
        const unknown: never = record;
        throw new TypeError(`Cannot apply session record: unknown type ${JSON.stringify(unknown)}`);
      }
    }
  }

  #trackFiles(calls: { name: string; arguments: string }[]): void {
    for (const call of calls) {
      const set = READ_TOOLS.has(call.name)
        ? this.#filesRead
        : MODIFY_TOOLS.has(call.name)
        ? this.#filesModified
        : undefined;
      const path = set && pathArgument(call.arguments);
      if (set && path) set.add(path);
    }
  }
}

function pathArgument(json: string): string | undefined {
  try {
    const args: unknown = JSON.parse(json);
    if (typeof args === "object" && args !== null && "path" in args) {
      return typeof args.path === "string" ? args.path : undefined;
    }
  } catch {
    // Malformed arguments name no file.
  }
  return undefined;
}
