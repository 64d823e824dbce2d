/**
 * The conversation: full append-only history, the last usage snapshot, the
 * compaction state and the files the agent has read or modified.
 *
 * @module
 */
import type { Message, TodoItem, ToolCall } from "../core/mod.ts";
import { type TodoOf, TodoTracker } from "./todo_tracker.ts";
import type {
  Redoable,
  RedoRecord,
  TaskEndRecord,
  TaskMark,
  TaskStartRecord,
  TreeMove,
  UndoRecord,
} from "./task_records.ts";
import { TaskTimeline } from "./task_timeline.ts";
import {
  PrefixLog,
  type PrefixSummary,
  type RequestRecord,
  type SegmentText,
} from "./prefix_log.ts";
import { EntryTree, type SessionEntry } from "./session_tree.ts";

/** `usage.total_tokens` of a reply, covering the working memory up to `historyLength` messages. */
export interface UsageSnapshot {
  totalTokens: number;
  historyLength: number;
  /**
   * The key of the system prompt and tool definitions the measured request carried
   * (`overheadKey`); a request that carries others is estimated whole. Absent in files
   * written before it existed.
   */
  overhead?: string;
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
  | PlanRecord
  | TaskStartRecord
  | TaskEndRecord
  | UndoRecord
  | RedoRecord
  | PermissionRecord
  | RequestRecord;

/** A question asked before a tool call ran, and its answer (see `PermissionEvent`). */
export interface PermissionRecord {
  type: "permission";
  callId: string;
  tool: string;
  subject: string;
  question: string;
  answer: string;
  detail?: string;
}

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

/** The state of a session an undo takes back, with the lengths of its file lists. */
interface Mark {
  compaction: CompactionState | undefined;
  usage: UsageSnapshot | undefined;
  profile: string | undefined;
  todo: readonly TodoItem[] | undefined;
  filesRead: number;
  filesModified: number;
}

/** The state of a session as a redo puts it back: the file lists whole. */
interface ConversationState extends Omit<Mark, "filesRead" | "filesModified"> {
  filesRead: string[];
  filesModified: string[];
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

/** What code outside the Agent may read of its session: the record, never a way to change it. */
export interface SessionView {
  readonly id: Session["id"];
  readonly history: Session["history"];
  readonly usage: Session["usage"];
  readonly compaction: Session["compaction"];
  readonly profile: Session["profile"];
  readonly planMode: Session["planMode"];
  readonly todo: readonly TodoItem[] | undefined;
  readonly filesRead: Session["filesRead"];
  readonly filesModified: Session["filesModified"];
  readonly tasks: Session["tasks"];
  readonly requests: Session["requests"];
  readonly entries: Session["entries"];
}

/**
 * In-memory session state, optionally mirrored to a sink.
 * Contract: the file is append-only. History grows by appends; only an undo takes a tail
 * of it out (and a redo puts it back), restoring the state the session had before that
 * tail, so the next request is the one the session would send had the tail never been.
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
  #timeline = new TaskTimeline<Mark, ConversationState>();
  #prefix = new PrefixLog();
  #tree = new EntryTree<SessionRecord>();
  #todoOf: TodoOf | undefined;

  /** Creates an empty session that writes each change to `options.sink` when given. */
  constructor(options: SessionOptions = {}) {
    this.#sink = options.sink;
    this.#pathsOf = options.pathsOf;
    this.#todoOf = options.todoOf;
    this.#todo = new TodoTracker(options.todoOf);
  }

  /**
   * Rebuilds a session from its records in the order they were written, without writing
   * them again: a record that names its `parent` (as its line does) follows that entry.
   */
  static fromRecords(records: Iterable<SessionRecord>, options: SessionOptions = {}): Session {
    const { sink, ...rest } = options;
    const session = new Session(rest);
    for (const written of records) {
      const { parent, ...record } = written as SessionRecord & { parent?: unknown };
      if (typeof parent === "number") session.#tree.moveTo(parent);
      session.#tree.add(typeof parent === "number" ? record as SessionRecord : written);
    }
    session.#replay(session.#tree.current);
    session.#sink = sink;
    return session;
  }

  /**
   * Rebuilds a session from every entry of its file, at the last one, without writing.
   * Contract: the entries are a file's parse (ids 2, 3, … in order, each path checked there).
   */
  static fromEntries(
    entries: readonly SessionEntry<SessionRecord>[],
    options: SessionOptions = {},
  ): Session {
    const { sink, ...rest } = options;
    const session = new Session(rest);
    session.#tree = new EntryTree(entries);
    session.#replay(session.#tree.current);
    session.#sink = sink;
    return session;
  }

  /** Every entry of the session (the file's records, all branches) and the current one. */
  get entries(): {
    readonly all: readonly SessionEntry<SessionRecord>[];
    readonly current: number;
  } {
    return { all: this.#tree.entries, current: this.#tree.current };
  }

  /**
   * Goes on from entry `id` in place: the conversation becomes the path from the root to it,
   * with the state the session had there, and the next record follows it (the entries after
   * it stay, a branch of their own). Nothing is written until the next record.
   * Contract: throws a RangeError for an id that is no entry. Every path holds: a loaded
   * file's branches were checked to their ends, and what the session wrote holds.
   */
  continueFrom(id: number): void {
    this.#tree.pathTo(id);
    this.#tree.moveTo(id);
    this.#replay(id);
  }

  /** The records on the path to entry `id` (default: the current one), for a fork. */
  pathRecords(id = this.#tree.current): SessionRecord[] {
    return this.#tree.pathTo(id);
  }

  /**
   * Writes `records` as this (empty) session's own, applying each: a fork's start. An undo's
   * branch is another file's entry: the fork keeps the undo without it.
   */
  adopt(records: readonly SessionRecord[]): void {
    for (const record of records) {
      if (record.type !== "undo" || record.from === undefined) this.#record(record);
      else {
        const { from: _branch, ...undo } = record;
        this.#record(undo);
      }
    }
  }

  /**
   * Resets every state to an empty session's and applies the path to entry `id`; with
   * `sent`, the log of requests stays as the requests were sent (an undo's move).
   */
  #replay(id: number, sent = false): void {
    this.#history = [];
    this.#usage = undefined;
    this.#compaction = undefined;
    this.#profile = undefined;
    this.#planMode = false;
    this.#todo = new TodoTracker(this.#todoOf);
    this.#filesRead = new Set();
    this.#filesModified = new Set();
    this.#timeline = new TaskTimeline<Mark, ConversationState>();
    for (const entry of this.#tree.pathEntries(id)) {
      if (!sent || entry.record.type !== "request") this.#apply(entry.record, entry.id);
    }
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

  /** The tasks of the conversation as it stands, oldest first, with their snapshots. */
  get tasks(): readonly TaskMark[] {
    return this.#timeline.tasks;
  }

  /**
   * The workspace snapshot powercode last left the files in (after the last task, undo or
   * redo); undefined while a task runs, after one that never ended, or when none was taken.
   */
  get tree(): string | undefined {
    return this.#timeline.tree;
  }

  /** What a redo would bring back; undefined when nothing was undone since the last task. */
  get redoable(): Redoable | undefined {
    const redoable = this.#timeline.redoable;
    const branch = this.#timeline.redoBranch;
    if (redoable === undefined || branch === undefined) return redoable;
    const messages = this.#tree.pathTo(branch)
      .filter((record) => record.type === "message").length;
    return { ...redoable, messages: Math.max(0, messages - this.#history.length) };
  }

  /** The requests sent in this session: the cached share the provider reported, the last miss. */
  get requests(): PrefixSummary {
    return this.#prefix.summary;
  }

  /**
   * Records a request sent with `segments` (its prefix as on the wire) and the prompt and
   * cached tokens its reply reported; a request that does not start with the one before is
   * recorded with where it first differed. History is unchanged.
   */
  recordRequest(segments: readonly SegmentText[], usage?: { prompt: number; cached: number }) {
    const { record, texts } = this.#prefix.next(segments, usage);
    this.#prefix.apply(record, texts);
    this.#write(record);
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

  /** Records a question asked before a tool call and its answer; history is unchanged. */
  recordPermission(record: Omit<PermissionRecord, "type">): void {
    this.#record({ type: "permission", ...record });
  }

  /** Records that a task starts now, `tree` being the workspace snapshot before it. */
  startTask(tree: string | null): void {
    this.#record({ type: "task_start", tree });
  }

  /** Records that the task started last has ended, `tree` being the workspace after it. */
  endTask(tree: string | null): void {
    this.#record({ type: "task_end", tree });
  }

  /**
   * Undoes: the conversation keeps its first `change.keep` messages (when given), and
   * `change.files` records a restore of the workspace. A redo takes it back.
   * Contract: throws a RangeError when `keep` exceeds the history or both are missing.
   */
  undo(change: { keep?: number; files?: TreeMove }): void {
    const { keep, files } = change;
    if (keep === undefined && files === undefined) {
      throw new RangeError("Cannot undo: neither messages nor files given");
    }
    if (keep !== undefined && keep > this.#history.length) {
      throw new RangeError(`Cannot undo to ${keep} messages: history has ${this.#history.length}`);
    }
    const task = keep === undefined ? undefined : this.tasks.find((each) => each.at >= keep);
    const entry = task === undefined ? undefined : this.#timeline.entryOf(task);
    const start = entry === undefined ? undefined : this.#tree.entry(entry);
    if (keep !== undefined && start !== undefined && task?.at === keep) {
      // Back to the entry before the task began: the tasks taken stay in the file as a branch.
      const from = this.#tree.current;
      this.#tree.moveTo(start.parent);
      this.#replay(start.parent, true);
      this.#record({ type: "undo", keep, ...(files ? { files } : {}), from });
      return;
    }
    this.#record({
      type: "undo",
      ...(keep !== undefined ? { keep } : {}),
      ...(files ? { files } : {}),
    });
  }

  /**
   * Takes the last undo back; `tree` is the workspace snapshot after its files were put back.
   * Contract: throws a RangeError when nothing is left to redo.
   */
  redo(tree?: string): void {
    if (!this.#timeline.redoable) {
      throw new RangeError("Cannot redo: nothing was undone since the last task");
    }
    const branch = this.#timeline.redoBranch;
    if (branch !== undefined) {
      this.#tree.moveTo(branch);
      this.#replay(branch, true);
    }
    this.#record({
      type: "redo",
      ...(tree !== undefined ? { tree } : {}),
      ...(branch !== undefined ? { branch: true as const } : {}),
    });
  }

  #record(record: SessionRecord): void {
    this.#apply(record, this.#tree.nextId);
    this.#write(record);
  }

  /** Adds `record` (applied) to the tree and the file: entry ids stay the file's lines. */
  #write(record: SessionRecord): void {
    const parent = this.#tree.add(record);
    // Only a record that does not follow the line before it names its parent (version 3).
    const line = parent === undefined ? record : Object.assign({}, record, { parent });
    this.#sink?.write(line);
  }

  /** Applies `record`, entry `id` of the tree. */
  #apply(record: SessionRecord, id: number): void {
    switch (record.type) {
      case "message":
        this.#timeline.message(this.#mark());
        this.#history.push(record.message);
        if (record.message.role === "assistant") this.#trackFiles(record.message.toolCalls);
        this.#todo.follow(record.message);
        return;
      case "usage":
        this.#usage = record.usage ?? undefined;
        return;
      case "compaction":
        this.#prefix.boundary("compaction");
        this.#compaction = record.state;
        this.#usage = undefined;
        return;
      case "model":
        this.#prefix.boundary("model");
        this.#profile = record.profile;
        this.#usage = undefined;
        return;
      case "plan":
        this.#planMode = record.on;
        return;
      case "permission":
        return;
      case "request":
        return this.#prefix.apply(record);
      case "task_start":
        return this.#timeline.startTask(record, this.#history.length, id);
      case "task_end":
        return this.#timeline.endTask(record);
      case "undo": {
        this.#prefix.boundary("undo");
        const now = { mark: this.#mark(), state: this.#state() };
        const mark = this.#timeline.undo(record, this.#history, now);
        if (mark) this.#restore(mark);
        return;
      }
      case "redo": {
        this.#prefix.boundary("undo");
        const state = this.#timeline.redo(record, this.#history);
        if (state) this.#restore(state);
        return;
      }
      default: {
        const unknown: never = record;
        throw new TypeError(`Cannot apply session record: unknown type ${JSON.stringify(unknown)}`);
      }
    }
  }

  #mark(): Mark {
    return {
      compaction: this.#compaction,
      usage: this.#usage,
      profile: this.#profile,
      todo: this.#todo.items,
      filesRead: this.#filesRead.size,
      filesModified: this.#filesModified.size,
    };
  }

  #state(): ConversationState {
    return { ...this.#mark(), filesRead: this.filesRead, filesModified: this.filesModified };
  }

  /** Back to `to`; the usage it had counts only if its profile's model measured it. */
  #restore(to: Mark | ConversationState): void {
    const keep = (list: string[], kept: number | string[]) =>
      new Set(typeof kept === "number" ? list.slice(0, kept) : kept);
    this.#compaction = to.compaction;
    this.#usage = to.profile === this.#profile ? to.usage : undefined;
    this.#todo.reset(to.todo);
    this.#filesRead = keep(this.filesRead, to.filesRead);
    this.#filesModified = keep(this.filesModified, to.filesModified);
  }

  #trackFiles(calls: ToolCall[]): void {
    for (const call of calls) {
      const paths = this.#pathsOf?.(call) ?? {};
      for (const path of paths.read ?? []) this.#filesRead.add(path);
      for (const path of paths.modified ?? []) this.#filesModified.add(path);
    }
  }
}
