/**
 * The agent loop: ask the model, run the tools it asks for, repeat until it answers.
 * The Agent is the REPL's one handle: tasks, events, context status, compaction, new sessions.
 *
 * @module
 */
import {
  ChatError,
  type ChatOptions,
  type ChatReply,
  type ChatRequest,
  finishWarning,
  type ReplyUsage,
  type WireSegment,
} from "../model/mod.ts";
import {
  type CompactionOutcome,
  type ContextStatus,
  type RequestOverhead,
  requestStep,
  type Spending,
  type StepOutcome,
} from "../context/mod.ts";
import type {
  AgentEvent,
  CallDescription,
  EventChannel,
  EventSink,
  MessageImage,
  SpendReport,
  TodoItem,
  ToolCall,
  ToolResult,
  UserMessage,
} from "../core/mod.ts";
import type { Session, SessionView } from "../session/mod.ts";
import {
  type BackOptions,
  type TaskSummary,
  type Undo,
  undoOff,
  type UndoOutcome,
} from "../undo/mod.ts";
import { ActiveModel, type ModelSlot } from "./model_slot.ts";
import { plainSwitch, PlanMode, type PlanSwitch } from "./plan_mode.ts";
import {
  failedNote,
  hookNote,
  interruptedNote,
  isNote,
  NO_REPLY,
  stoppedNote,
  unfinishedTodoNote,
} from "./task_notes.ts";
import { type ToolSet, USER_COMMAND_ID, userCommandCall } from "../tools/mod.ts";
import { shellNote } from "./shell_note.ts";
import { splitImage, toolImagesNote, withoutImages } from "./tool_images.ts";
import { NO_TASK_HOOKS, type SessionSource, type TaskHooks } from "./task_hooks.ts";

/** How many times a `Stop` hook may send the model back to work in one task. */
export const MAX_STOP_HOOK_STEPS = 3;
import { groupCalls, MAX_CONCURRENT_CALLS, Slots } from "./call_groups.ts";

/** The parts an agent works with. */
export interface AgentOptions {
  /** The model requests go to first ({@linkcode Agent.useModel} switches). */
  slot: ModelSlot;
  /** The profile a session runs on until it records a switch (the provider file's default). */
  defaultProfile: string;
  /** The live tool set: each request carries its definitions as they are at that step. */
  tools: ToolSet;
  /** The session tasks go to first. */
  session: Session;
  /** Creates the next empty session, for {@linkcode Agent.startNewSession}. */
  newSession: () => Session;
  systemPrompt: string;
  /** Builds the system prompt afresh for a new session (re-reads AGENTS.md). */
  reloadSystemPrompt?: () => Promise<string>;
  /** Model calls allowed per task. */
  maxSteps: number;
  /** Where the agent reports (its compactor too); {@linkcode Agent.subscribe} joins it. */
  events: EventChannel;
  /** Counts what tasks and the session spend, and holds the budget each request must fit. */
  spending?: Spending;
  /** Plan mode's switch, set as the run starts (default: one the tools do not enforce). */
  plan?: PlanSwitch;
  /** Steps of TODO.md not done at start, for a new session: its first task's note lists them. */
  unfinishedTodo?: readonly TodoItem[];
  /** Snapshots around each task and command, for undo (default: off in this run). */
  undo?: Undo;
  /** The user's hooks of prompts, session starts, stops and `/compact` (default: none). */
  hooks?: TaskHooks;
}

/** How a task ended. */
export type TaskResult =
  | { status: "done"; answer: string }
  | { status: "failed"; error: string }
  | { status: "interrupted" }
  | { status: "step_limit"; error: string }
  /** The budget refused the next request; nothing was sent. */
  | { status: "budget"; error: string };

/** What a task may carry besides its text. */
export interface RunOptions {
  /** How the terminal showed the task when that differs from its text (a paste's label). */
  shown?: string;
  /**
   * The messages the user queued while the task runs (steering), taken after the results of
   * each step's tool calls and after a reply without them: appended to history as user
   * messages, so the model reads them before its next step. Each is taken once.
   */
  steering?: () => UserMessage[] | Promise<UserMessage[]>;
  /** Images sent with the task, after its text (only ever given for a vision profile). */
  images?: MessageImage[];
}

/** The text recorded as the result of a tool call that never ran to completion. */
export const INTERRUPTED_RESULT = "Error: interrupted by the user before this tool call finished";

/** Runs tasks against its session; owns the session, the model slot and the system prompt. */
export class Agent {
  #options: AgentOptions;
  #session: Session;
  #undo: Undo;
  #system: string;
  #active: ActiveModel;
  #plan: PlanMode;
  /** The note of unfinished work in TODO.md, until the first task takes it. */
  #startNote: string | undefined;
  #hooks: TaskHooks;
  /** Why the session started, until its first task runs the `SessionStart` hooks. */
  #sessionSource: SessionSource | undefined;

  /**
   * Creates an agent with its system prompt; tool definitions are read from the set per step.
   * A session that has history and ran on another profile records the switch now; one whose
   * last task stopped before its reply came (the process was killed) records that it was
   * interrupted.
   */
  constructor(options: AgentOptions) {
    this.#options = options;
    this.#session = options.session;
    this.#undo = options.undo ?? undoOff();
    this.#system = options.systemPrompt;
    this.#hooks = options.hooks ?? NO_TASK_HOOKS;
    this.#sessionSource = options.session.history.length > 0 ? "resume" : "startup";
    this.#active = new ActiveModel(options.slot, options.defaultProfile);
    closeStoppedTask(this.#session);
    if (this.#session.history.length > 0) this.#active.record(this.#session);
    this.#plan = new PlanMode(options.plan ?? plainSwitch(), this.#session);
    const unfinished = options.unfinishedTodo ?? [];
    this.#startNote = unfinished.length > 0 ? unfinishedTodoNote(unfinished) : undefined;
    // The questions asked before tool calls join the session as they are answered.
    options.events.subscribe((event) => {
      if (event.type !== "permission") return;
      const { type: _type, ...record } = event;
      this.#session.recordPermission(record);
    });
  }

  /** Whether plan mode is on: changes refused but PLAN.md, bash read-only. */
  get planMode(): boolean {
    return this.#plan.on;
  }

  /** Turns plan mode on or off; the model is told with the next task. */
  setPlanMode(on: boolean): void {
    this.#plan.set(on, this.#session);
  }

  /** The session's todo list, as the latest call of the todo tool set it. */
  get todo(): readonly TodoItem[] | undefined {
    return this.#session.todo;
  }

  /** The model requests go to now. */
  get slot(): ModelSlot {
    return this.#active.slot;
  }

  /**
   * Sends the next requests to `slot`. The switch is recorded in the session (at once when
   * it has history, else with its first task), which makes the usage snapshot of the
   * previous model stale, so the next request is estimated whole against the new window;
   * before it, the history is compacted (in as many rounds as it takes) until it fits.
   */
  useModel(slot: ModelSlot): void {
    this.#active.use(slot, this.#session);
  }

  /**
   * Calls `listener` with every event of the agent and its compactor from now on;
   * returns the function that stops it.
   */
  subscribe(listener: EventSink): () => void {
    return this.#options.events.subscribe(listener);
  }

  /** The session tasks are appended to, to read: every change is an operation of the Agent. */
  get view(): SessionView {
    return this.#session;
  }

  /** Whether tasks are snapshotted, so that `/undo` can take them back. */
  get undoable(): boolean {
    return this.#undo.on;
  }

  /** The session's tasks, oldest first, with how many files each changed (`/rewind`). */
  tasks(): TaskSummary[] {
    return this.#undo.list(this.#session);
  }

  /** Takes back task `number` (1 = the first) and every task after it: files, messages or both. */
  async undoTasks(number: number, options: BackOptions): Promise<UndoOutcome> {
    const outcome = await this.#undo.back(this.#session, number, options);
    // The notes taken back with the tasks are no longer what the model was told.
    this.#plan.follow(this.#session);
    return outcome;
  }

  /** Brings back what the last undo took, until a new task starts. */
  async redo(options: { force: boolean }): Promise<UndoOutcome> {
    const outcome = await this.#undo.redo(this.#session, options);
    this.#plan.follow(this.#session);
    return outcome;
  }

  /**
   * Runs a command the user typed (`!cmd`) as the bash tool runs it, between snapshots like a
   * task, so that `/undo` takes it back; listeners get `command_start`, then the call's
   * `tool_output` and `tool_end`. With `keep`, `$ cmd` and its output join the conversation
   * once the command has ended (not after a refusal or an interruption). Returns whether it
   * succeeded. Contract: never throws for the command.
   */
  async runCommand(
    command: string,
    options: { keep: boolean; signal: AbortSignal },
  ): Promise<boolean> {
    const { signal } = options;
    const emit = this.#options.events.emit;
    const call = userCommandCall(USER_COMMAND_ID, command);
    return await this.#betweenSnapshots(async () => {
      emit({ type: "command_start", call, command });
      this.#undo.noteCall(call);
      const result = await this.#options.tools.execute(
        call,
        signal,
        (text) => emit({ type: "tool_output", call, text }),
      );
      const { isError, summary, details } = result;
      emit({ type: "tool_end", call, isError, summary, ...(details ? { details } : {}) });
      if (options.keep && details?.kind === "command" && !signal.aborted) {
        const content = shellNote(command, result.content);
        this.#session.append({ role: "user", content, shown: `!${command}` });
      }
      return !isError;
    });
  }

  /** Runs `work` between the snapshots of a task, however it ends. */
  async #betweenSnapshots<T>(work: () => Promise<T>): Promise<T> {
    const session = this.#session;
    await this.#undo.beforeTask(session);
    const stop = this.subscribe((event) => {
      if (event.type === "tool_start") this.#undo.noteCall(event.call);
    });
    try {
      return await work();
    } finally {
      stop();
      await this.#undo.afterTask(session);
    }
  }

  /** The system prompt and tool definitions the next request carries. */
  get requestOverhead(): RequestOverhead {
    return this.#overhead;
  }

  /** How a tool call is shown, by the tool it calls (also for calls in a resumed history). */
  describeCall(call: ToolCall): CallDescription {
    return this.#options.tools.describe(call);
  }

  /** The request overhead now: the tool set's definitions only change with its version. */
  get #overhead(): RequestOverhead {
    return { system: this.#system, tools: this.#options.tools.definitions() };
  }

  /** What the last task and the session spent, with costs and limits; undefined when not counted. */
  spend(): SpendReport | undefined {
    return this.#options.spending?.report(this.slot.pricing);
  }

  /** Token estimate, window, threshold and compaction state, for `/context`. */
  context(): ContextStatus {
    return this.slot.compactor.status(this.#session, this.#overhead);
  }

  /**
   * Compacts the session now (`/compact`, or the demo's `automatic` round), with optional
   * focus text for the summary.
   * Contract: as `Compactor.compact`; an abort propagates.
   */
  compact(
    focus: string,
    signal: AbortSignal,
    reason: "manual" | "automatic" = "manual",
  ): Promise<CompactionOutcome> {
    const options = { signal, reason, ...(focus ? { focus } : {}) };
    this.#active.record(this.#session);
    const compact = () => this.slot.compactor.compact(this.#session, this.#overhead, options);
    return reason === "manual" ? this.#hooks.compacting(signal, "manual").then(compact) : compact();
  }

  /** Closes the session's file; the agent takes no task after it. */
  close(): void {
    this.#session.close();
  }

  /**
   * Closes the current session's file and continues in a new, empty session, with the
   * system prompt built afresh (project instructions re-read).
   */
  async startNewSession(): Promise<void> {
    const system = await this.#options.reloadSystemPrompt?.() ?? this.#system;
    this.#session.close();
    this.#session = this.#options.newSession();
    this.#options.spending?.startSession();
    this.#system = system;
    this.#sessionSource = "clear";
    this.#plan.follow(this.#session);
  }

  /**
   * Goes on from entry `id` of the session in place (`/tree`): the conversation becomes the
   * path to it, the entries after it a branch kept in the file. The files are not touched.
   * Contract: throws a RangeError for an id that is no entry of the session.
   */
  continueFrom(id: number): void {
    this.#session.continueFrom(id);
    this.#plan.follow(this.#session);
  }

  /**
   * Starts a new session whose records are the path to entry `id` of this one (default: the
   * current entry) and goes on there (`/fork`); this session stays on disk as it is.
   * Contract: throws a RangeError for an id that is no entry; the new file is written whole.
   */
  fork(id?: number): void {
    const records = this.#session.pathRecords(id);
    const session = this.#options.newSession();
    session.adopt(records);
    this.#session.close();
    this.#session = session;
    this.#sessionSource = "resume";
    this.#plan.follow(session);
  }

  /**
   * Runs one task to its end, with the messages queued meanwhile (`options.steering`).
   * Contract: never throws for chat failures or interruptions; on return every tool
   * call in history has exactly one result, so the session is valid for the next task.
   * Contract: a queued message follows the last tool result of a step (never comes between
   * a call and its result) and is in history, so `--continue` sends the same request.
   */
  run(task: string, signal: AbortSignal, options: RunOptions = {}): Promise<TaskResult> {
    return this.#betweenSnapshots(() => this.#runTask(task, signal, options));
  }

  async #runTask(task: string, signal: AbortSignal, options: RunOptions): Promise<TaskResult> {
    const { maxSteps } = this.#options;
    const session = this.#session;
    const hooks = this.#hooks;
    const verdict = await hooks.promptSubmitted(task, signal);
    if (verdict.kind === "block") {
      return {
        status: "failed",
        error: `A UserPromptSubmit hook refused the prompt: ${verdict.reason}`,
      };
    }
    const started = await this.#sessionStarted(signal);
    this.#active.record(session);
    for (const note of this.#notesForTask(session)) session.append({ role: "user", content: note });
    for (const text of started) {
      session.append({ role: "user", content: hookNote("SessionStart", text) });
    }
    const shown = options.shown !== undefined && options.shown !== task
      ? { shown: options.shown }
      : {};
    const images = options.images?.length ? { images: options.images } : {};
    session.append({ role: "user", content: task, ...shown, ...images });
    for (const text of verdict.context) {
      session.append({ role: "user", content: hookNote("UserPromptSubmit", text) });
    }
    let stopHookSteps = 0;
    const steer = async () => {
      const queued = await options.steering?.() ?? [];
      for (const message of queued) session.append(message);
      return queued.length > 0;
    };
    this.#options.spending?.startTask();
    const partial = { text: "" };
    try {
      for (let step = 0; step < maxSteps; step++) {
        partial.text = "";
        const outcome = await this.#ask(session, signal, partial);
        if (outcome.type === "too_long") return failTask(session, partial.text, outcome.message);
        if (outcome.type === "budget") return stopOnBudget(session, outcome.message);
        const { message } = outcome.reply;
        if (message.toolCalls.length === 0) {
          // A message queued while the answer streamed goes on with the same task.
          if (await steer()) continue;
          if (stopHookSteps < MAX_STOP_HOOK_STEPS) {
            const reason = await hooks.stopping(stopHookSteps > 0, signal);
            if (reason !== undefined) {
              stopHookSteps++;
              session.append({ role: "user", content: hookNote("Stop", reason) });
              continue;
            }
          }
          return { status: "done", answer: message.content };
        }
        await this.#runTools(session, message.toolCalls, signal);
        await steer();
      }
      return {
        status: "step_limit",
        error: `Stopped after ${maxSteps} model call${
          maxSteps === 1 ? "" : "s"
        } (--max-steps ${maxSteps}); the task is unfinished, say "continue" to go on`,
      };
    } catch (error) {
      if (signal.aborted) {
        closeTurn(session, partial.text, interruptedNote());
        return { status: "interrupted" };
      }
      if (error instanceof ChatError) return failTask(session, partial.text, error.message);
      throw error;
    }
  }

  /** What the `SessionStart` hooks add, with a session's first task only. */
  async #sessionStarted(signal: AbortSignal): Promise<string[]> {
    const source = this.#sessionSource;
    this.#sessionSource = undefined;
    return source === undefined ? [] : await this.#hooks.sessionStarted(source, signal);
  }

  /** The notes that go out with the next task: unfinished work at start, plan mode's change. */
  #notesForTask(session: Session): string[] {
    const notes = [this.#startNote, this.#plan.noteForTask(session)];
    this.#startNote = undefined;
    return notes.flatMap((note) => note === undefined ? [] : [note]);
  }

  /** Asks the model once, streaming its reply as events; the context decides what it is sent. */
  async #ask(
    session: Session,
    signal: AbortSignal,
    partial: { text: string },
  ): Promise<StepOutcome> {
    const { compactor, model } = this.slot;
    const onEvent = this.#options.events.emit;
    const emit = (event: AgentEvent) => {
      // The text streamed so far is abandoned: the retry streams its own.
      if (event.type === "discard_partial" || event.type === "retry") partial.text = "";
      onEvent(event);
    };
    const send = (request: ChatRequest, retries: Pick<ChatOptions, "admitRetry">) => {
      emit({ type: "thinking" });
      const sent = this.slot.vision ? request : withoutImages(request, this.slot.name);
      return recordRequests(session, (onRequest) =>
        model.complete(sent, {
          ...retries,
          onRequest,
          signal,
          onText: (text) => {
            partial.text += text;
            emit({ type: "text", text });
          },
          onReasoning: (text) => emit({ type: "reasoning", text }),
          onDiscard: () => emit({ type: "discard_partial" }),
          onRetry: (info) => emit({ type: "retry", ...info }),
        }));
    };
    // Tools still joining (MCP servers starting) go with the first request, so all requests
    // of the session send the same definitions.
    await this.#options.tools.joined(signal, (servers) => emit({ type: "mcp_waiting", servers }));
    await this.#active.fit(session, this.#overhead, signal);
    const spending = this.#options.spending;
    const outcome = await requestStep(compactor, session, this.#overhead, {
      signal,
      onEvent: emit,
      send,
      beforeCompact: () => this.#hooks.compacting(signal, "auto"),
      ...(spending
        ? {
          admit: (prompt, output) => spending.admit(prompt, output, this.slot.pricing),
          replyAllowance: (prompt) => spending.replyAllowance(prompt, this.slot.pricing),
        }
        : {}),
    });
    const capped = compactor.settings.maxOutputTokens === undefined && spending?.limited
      ? "budget"
      : "config";
    const warning = outcome.type === "reply" &&
      finishWarning(outcome.reply.finishReason, capped);
    if (warning) onEvent({ type: "warning", message: warning });
    return outcome;
  }

  /**
   * Runs the calls in order, a run of calls to a concurrent tool together (see
   * `groupCalls`); their results join history in the calls' order. After an interruption
   * the calls not started are answered as interrupted.
   */
  async #runTools(session: Session, calls: ToolCall[], signal: AbortSignal): Promise<void> {
    const { tools } = this.#options;
    const images: MessageImage[] = [];
    for (const group of groupCalls(calls, (name) => tools.concurrent(name))) {
      await this.#runGroup(session, group, { signal, images });
    }
    if (images.length > 0) session.append(toolImagesNote(images));
    signal.throwIfAborted();
  }

  /**
   * Starts each call of `group` once the policy allowed it (questions one at a time, in
   * order), at most {@linkcode MAX_CONCURRENT_CALLS} running at once. Each result joins
   * history, and its `tool_end` goes out, once those of the calls before it have: in order.
   * The images the calls give are added to `images`, in the same order.
   */
  async #runGroup(
    session: Session,
    group: ToolCall[],
    { signal, images }: { signal: AbortSignal; images: MessageImage[] },
  ): Promise<void> {
    const { tools } = this.#options;
    const onEvent = this.#options.events.emit;
    const slots = new Slots(MAX_CONCURRENT_CALLS);
    const ended: ({ result: ToolResult; started: boolean } | undefined)[] = group.map(() =>
      undefined
    );
    let done = 0;
    const flush = () => {
      for (let next = ended[done]; next; next = ended[done]) {
        const call = group[done++];
        if (!call) return;
        const split = splitImage(next.result, { ...this.slot, taken: images.length });
        if (split.image) images.push(split.image);
        const { content, isError, session: child, summary, details } = split.result;
        session.append({
          role: "tool",
          toolCallId: call.id,
          content,
          isError,
          ...(child !== undefined ? { session: child } : {}),
        });
        if (next.started) {
          onEvent({ type: "tool_end", call, isError, summary, ...(details ? { details } : {}) });
        }
      }
    };
    const finish = (index: number, result: ToolResult) => {
      const content = signal.aborted ? `${result.content}\n${INTERRUPTED_RESULT}` : result.content;
      ended[index] = {
        result: { ...result, content, isError: result.isError || signal.aborted },
        started: true,
      };
      flush();
    };
    const running: Promise<void>[] = [];
    for (const [index, call] of group.entries()) {
      if (signal.aborted) {
        ended[index] = { result: interruptedResult(), started: false };
        flush();
        continue;
      }
      onEvent({ type: "tool_start", call, description: tools.describe(call) });
      const admitted = await tools.admit(
        call,
        signal,
        (text) => onEvent({ type: "tool_output", call, text }),
      );
      const result = typeof admitted === "function"
        ? slots.run(admitted, () => interruptedResult(), signal)
        : Promise.resolve(admitted);
      running.push(result.then((result) => finish(index, result)));
    }
    await Promise.all(running);
  }
}

/** The result of a call that waited for a place until the task was interrupted. */
function interruptedResult(): ToolResult {
  return { content: INTERRUPTED_RESULT, summary: "interrupted", isError: true };
}

/**
 * Runs `complete` and records in the session each request it sent (`onRequest`), with the
 * usage of the reply that answered the last one.
 */
async function recordRequests(
  session: Session,
  complete: (onRequest: NonNullable<ChatOptions["onRequest"]>) => Promise<ChatReply>,
): Promise<ChatReply> {
  let sent: readonly WireSegment[] | undefined;
  const record = (usage?: ReplyUsage) => {
    if (sent) {
      session.recordRequest(
        sent,
        usage && { prompt: usage.promptTokens, cached: usage.cachedTokens },
      );
    }
    sent = undefined;
  };
  try {
    const reply = await complete((segments) => {
      record();
      sent = segments;
    });
    record(reply.usage);
    return reply;
  } catch (error) {
    record();
    throw error;
  }
}

/** Ends a task on a failure: the turn closed with a note saying why, one line for the user. */
function failTask(session: Session, partialText: string, error: string): TaskResult {
  closeTurn(session, partialText, failedNote(error));
  return { status: "failed", error };
}

/** Ends a task the budget stopped before a request: closed like a failure, its own status. */
function stopOnBudget(session: Session, error: string): TaskResult {
  closeTurn(session, "", failedNote(error));
  return { status: "budget", error };
}

/**
 * Closes the task a resumed session ends with when its process stopped before the reply came
 * (its message, or a queued one, is last): as an interruption closes it, so the next task is
 * not joined to it and the messages already sent stay as they were.
 */
function closeStoppedTask(session: Session): void {
  const last = session.history.at(-1);
  if (last?.role === "user" && !isNote(last.content)) closeTurn(session, "", stoppedNote());
}

/**
 * Ends a task that got no final answer: keeps the partial reply the user saw (or a stand-in
 * when the task's own message is last), then a note for the model, so the next task is never
 * silently merged with this one and no earlier message changes.
 */
function closeTurn(session: Session, partialText: string, note: string): void {
  const last = session.history.at(-1);
  if (partialText !== "") {
    session.append({ role: "assistant", content: partialText, toolCalls: [] });
  } else if (last?.role === "user") {
    session.append({ role: "assistant", content: NO_REPLY, toolCalls: [] });
  }
  session.append({ role: "user", content: note });
}
