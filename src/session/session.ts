/**
 * The conversation: full append-only history, the last usage snapshot, the
 * compaction state and the files the agent has read or modified.
 *
 * @module
 */
import type { Message, TodoItem, ToolCall } from "../core/mod.ts";
import { type TodoOf, TodoTracker } from "./todo_tracker.ts";

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
  | { type: "compaction"; state: CompactionState; tokensBefore: number; tokensAfter: number }
  | ModelRecord
  | PlanRecord;

/** The user turned plan mode on or off (`/plan`, `--plan`); `--continue` restores it. */
export interface PlanRecord {
  type: "plan";
  on: boolean;
}

/**
 * The session goes on with another profile of the provider file (`/model`, `--model`);
 * the usage snapshot, measured by the previous model, becomes stale.
 */
export interface ModelRecord {
  type: "model";
  /** The profile's name in the provider file. */
  profile: string;
}

/** Receives every record as it happens (the session file). */
export interface SessionSink {
  /** The session's id once its file exists. */
  readonly id?: string | undefined;
  write(record: SessionRecord): void;
  /** Releases the file; later writes fail. */
  close(): void;
}

/** Workspace paths a tool call reads or modifies (the tool registry's `pathsOf`). */
export type PathsOf = (call: ToolCall) => { read?: string[]; modified?: string[] };

/** How a session is created: where its records go and how it learns file lists. */
export interface SessionOptions {
  sink?: SessionSink;
  /** Without it, the file lists stay empty. */
  pathsOf?: PathsOf;
  /** Without it, there is never a todo list. */
  todoOf?: TodoOf;
}

/**
 * In-memory session state, optionally mirrored to a sink.
 * Contract: history is append-only; only `applyCompaction` changes what the model sees.
 */
export class Session {
  #history: Message[] = [];
  #usage: UsageSnapshot | undefined;
  #compaction: CompactionState | undefined;
  #profile: string | undefined;
  #planMode = false;
  #todo: TodoTracker;
  #filesRead = new Set<string>();
  #filesModified = new Set<string>();
  #sink: SessionSink | undefined;
  #pathsOf: PathsOf | undefined;

  /** Creates an empty session that writes each change to `options.sink` when given. */
  constructor(options: SessionOptions = {}) {
    this.#sink = options.sink;
    this.#pathsOf = options.pathsOf;
    this.#todo = new TodoTracker(options.todoOf);
  }

  /** Rebuilds a session from its records without writing them again. */
  static fromRecords(records: Iterable<SessionRecord>, options: SessionOptions = {}): Session {
    const { sink, ...rest } = options;
    const session = new Session(rest);
    for (const record of records) session.#apply(record);
    session.#sink = sink;
    return session;
  }

  /** The id of the session file, undefined while nothing was written (or in memory only). */
  get id(): string | undefined {
    return this.#sink?.id;
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

  /** The profile of the last model record; undefined when the session never switched. */
  get profile(): string | undefined {
    return this.#profile;
  }

  /** Whether plan mode was on at the last plan record (off without one). */
  get planMode(): boolean {
    return this.#planMode;
  }

  /** The list of the latest call of the todo tool that succeeded; undefined before the first. */
  get todo(): readonly TodoItem[] | undefined {
    return this.#todo.items;
  }

  /** Workspace paths that tool calls read, in first-seen order. */
  get filesRead(): string[] {
    return [...this.#filesRead];
  }

  /** Workspace paths that tool calls modified, in first-seen order. */
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

  /** Records that requests go to profile `name` from now on; the usage snapshot becomes stale. */
  recordProfile(name: string): void {
    this.#record({ type: "model", profile: name });
  }

  /** Records that plan mode is turned on or off. */
  recordPlanMode(on: boolean): void {
    this.#record({ type: "plan", on });
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
        this.#todo.follow(record.message);
        return;
      case "usage":
        this.#usage = record.usage ?? undefined;
        return;
      case "compaction":
        this.#compaction = record.state;
        this.#usage = undefined;
        return;
      case "model":
        this.#profile = record.profile;
        this.#usage = undefined;
        return;
      case "plan":
        this.#planMode = record.on;
        return;
      default: {
        const unknown: never = record;
        throw new TypeError(`Cannot apply session record: unknown type ${JSON.stringify(unknown)}`);
      }
    }
  }

  #trackFiles(calls: ToolCall[]): void {
    for (const call of calls) {
      const paths = this.#pathsOf?.(call) ?? {};
      for (const path of paths.read ?? []) this.#filesRead.add(path);
      for (const path of paths.modified ?? []) this.#filesModified.add(path);
    }
  }
}
