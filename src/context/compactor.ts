/**
 * The Compactor decides, before every model call, what the model sees: the working
 * memory, compacted into a summary by one model call when it grows too large.
 *
 * @module
 */
import type { ChatModel } from "../model/mod.ts";
import type { CompactionEvent, CompactionReason, Message } from "../core/mod.ts";
import type { Session } from "../session/mod.ts";
import { type CompactionSettings, compactionThreshold } from "./settings.ts";
import { estimateContextTokens, estimateRequestTokens, type RequestOverhead } from "./tokens.ts";
import {
  buildWorkingMemory,
  TOOL_OUTPUT_LIMIT,
  withFileLists,
  withoutFileLists,
} from "./working_memory.ts";

/** What a Compactor needs. */
export interface CompactorOptions {
  /** Writes the summaries. */
  model: ChatModel;
  settings: CompactionSettings;
  onEvent?: (event: CompactionEvent) => void;
  /**
   * Ask for each summary at the end of the conversation as the model last saw it (tools
   * included, so the provider serves it from its prompt cache) before falling back to the
   * serialized transcript. On unless `false`, which asks with the serialized transcript
   * alone, in a request without tools.
   */
  summaryInConversation?: boolean;
}

/** Per-call options of `prepare` and `compact`. */
export interface CompactOptions {
  signal?: AbortSignal;
  /** Compact even below the threshold (context overflow recovery, `/compact`). */
  force?: boolean;
  /** `/compact` focus text for the summary. */
  focus?: string;
  /** Runs before a compaction this request needs starts (the `PreCompact` hooks, "auto"). */
  beforeCompact?: () => Promise<void>;
}

/** How a compaction attempt ended; "compacted" carries the `compaction_end` numbers. */
export type CompactionOutcome =
  | ({ type: "compacted" } & Omit<Extract<CompactionEvent, { type: "compaction_end" }>, "type">)
  | { type: "nothing_to_compact" }
  | { type: "failed"; reason: string };

/**
 * The messages to send after the system prompt: the working memory, or a request shortened
 * beyond it (the summary failed or did not suffice; a warning said so), or why none fits;
 * `estimatedTokens` is the one estimate of the whole request that decided it.
 */
export type PreparedRequest =
  | { type: "working_memory"; messages: Message[]; estimatedTokens: number }
  | { type: "shortened"; messages: Message[]; estimatedTokens: number }
  | { type: "too_long"; reason: string };

/** What `/context` shows. */
export interface ContextStatus {
  estimatedTokens: number;
  contextWindow: number;
  threshold: number;
  /** Messages in the full history. */
  messages: number;
  summary: boolean;
  compactedUntil: number;
}

const NOTHING_TO_COMPACT: CompactionEvent = {
  type: "warning",
  message: "Nothing to compact: the working memory holds only the latest step",
};

/** Messages appended after a failed summary before the next automatic attempt. */
const RETRY_AFTER_MESSAGES = 6;

/**
 * Builds the working memory and compacts the session when it grows too large.
 * Contract: never removes or changes history; only `session.applyCompaction` changes
 * what the model sees. Per call, work is proportional to the messages after
 * `compactedUntil`, not to the whole history.
 */
export class Compactor {
  #summaryInConversation: boolean;
  #model: ChatModel;
  #settings: CompactionSettings;
  #onEvent: (event: CompactionEvent) => void;
  /** Where a summary last failed: automatic compaction waits until history grows past it. */
  #lastFailure: { session: Session; retryAt: number } | undefined;

  /** Creates a compactor; events go to `options.onEvent` when given. */
  constructor(options: CompactorOptions) {
    this.#summaryInConversation = options.summaryInConversation !== false;
    this.#model = options.model;
    this.#settings = options.settings;
    this.#onEvent = options.onEvent ?? (() => {});
  }

  /** The settings this compactor works with (window, reserve, output limit). */
  get settings(): CompactionSettings {
    return this.#settings;
  }

  /**
   * The messages to send after the system prompt, without compacting.
   * Contract: pairing repaired, tool outputs over 8000 characters shortened.
   */
  workingMemory(session: Pick<Session, "history" | "compaction">): Message[] {
    return buildWorkingMemory(session, { toolOutputLimit: TOOL_OUTPUT_LIMIT });
  }

  /** Token estimate, window, threshold and compaction state, for `/context`. */
  status(session: Session, overhead: RequestOverhead): ContextStatus {
    return {
      estimatedTokens: this.#estimate(session, this.workingMemory(session), overhead),
      contextWindow: this.#settings.contextWindow,
      threshold: compactionThreshold(this.#settings),
      messages: session.history.length,
      summary: session.compaction !== undefined,
      compactedUntil: session.compaction?.compactedUntil ?? 0,
    };
  }

  /**
   * The messages `prepareRequest` returns, for callers that expect them to fit.
   * Contract: as `prepareRequest`; throws `RangeError` with the reason when none fits.
   */
  async prepare(
    session: Session,
    overhead: RequestOverhead,
    options: CompactOptions = {},
  ): Promise<Message[]> {
    const prepared = await this.prepareRequest(session, overhead, options);
    if (prepared.type === "too_long") throw new RangeError(prepared.reason);
    return prepared.messages;
  }

  /**
   * Call before every model call: compacts when forced or when the estimate is above
   * `contextWindow - reserveTokens`, then returns the messages to send.
   * Contract: one estimate (the last usage plus the messages added since, or the whole
   * request without usable usage) decides both whether to compact and whether the request
   * fits. A request over the threshold is compacted first; it is shortened (tool outputs,
   * then older messages, from the request only, with a warning) only when the summary
   * failed, is paused after a failure, or could not bring it under the threshold; when even
   * that fails it returns "too_long", never an over-long request. A failed or empty summary
   * keeps the old state and emits a warning; an abort propagates. Between compactions the
   * returned working memory extends the previous request's.
   */
  async prepareRequest(
    session: Session,
    overhead: RequestOverhead,
    options: CompactOptions = {},
  ): Promise<PreparedRequest> {
    options.signal?.throwIfAborted();
    let memory = this.workingMemory(session);
    let estimate = this.#estimate(session, memory, overhead);
    const threshold = compactionThreshold(this.#settings);
    if (!options.force && estimate <= threshold) {
      return { type: "working_memory", messages: memory, estimatedTokens: estimate };
    }
    let why = "the summary is paused after a failure";
    if (options.force || !this.#coolingDown(session)) {
      const reason = options.force ? "overflow" : "automatic";
      await options.beforeCompact?.();
      const outcome = await this.#compactOnce(session, overhead, options, estimate, reason);
      if (outcome.type === "nothing_to_compact" && options.force) {
        this.#onEvent(NOTHING_TO_COMPACT);
      }
      if (outcome.type === "compacted") {
        memory = this.workingMemory(session);
        estimate = outcome.tokensAfter;
      }
      why = outcome.type === "compacted"
        ? "even after compaction"
        : outcome.type === "failed"
        ? "and compaction failed"
        : "and there is nothing left to compact";
    }
    if (estimate <= threshold) {
      return { type: "working_memory", messages: memory, estimatedTokens: estimate };
    }
    return await this.#shrink(session, overhead, estimate, why);
  }

  /**
   * Compacts now (`/compact`), keeping about `keepRecentTokens` of recent messages, or only
   * the newest step when those are all there is.
   * Contract: as `prepare`; "nothing to compact" is reported as a warning event.
   */
  async compact(
    session: Session,
    overhead: RequestOverhead,
    options: Omit<CompactOptions, "force"> & { reason?: CompactionReason } = {},
  ): Promise<CompactionOutcome> {
    options.signal?.throwIfAborted();
    const estimate = this.#estimate(session, this.workingMemory(session), overhead);
    const force = { ...options, force: true };
    const reason = options.reason ?? "manual";
    const outcome = await this.#compactOnce(session, overhead, force, estimate, reason);
    if (outcome.type === "nothing_to_compact") this.#onEvent(NOTHING_TO_COMPACT);
    return outcome;
  }

  async #compactOnce(
    session: Session,
    overhead: RequestOverhead,
    options: CompactOptions,
    estimate: number,
    reason: CompactionReason,
  ): Promise<CompactionOutcome> {
    // The summarizer and the cut loads only when a run compacts.
    const [{ findCutPoint }, { summarize, summaryConversation }] = await Promise.all([
      import("./cut_point.ts"),
      import("./summarizer.ts"),
    ]);
    const start = session.compaction?.compactedUntil ?? 0;
    const cut = this.#findCut(findCutPoint, session, start, options.force === true);
    if (cut.index <= start) return { type: "nothing_to_compact" };
    const { contextWindow } = this.#settings;
    this.#onEvent({ type: "compaction_start", reason, estimatedTokens: estimate, contextWindow });
    const result = await summarize(this.#model, {
      settings: this.#settings,
      messages: session.history.slice(start, cut.index),
      splitTurn: cut.splitTurn,
      previousSummary: session.compaction && withoutFileLists(session.compaction.summary),
      conversation: this.#summaryInConversation
        ? summaryConversation(session, overhead, cut.index)
        : undefined,
    }, options);
    if (!result.ok) {
      this.#lastFailure = { session, retryAt: session.history.length + RETRY_AFTER_MESSAGES };
      this.#onEvent({
        type: "warning",
        message:
          `Context compression failed: ${result.reason}; earlier messages are kept and the request is truncated instead`,
      });
      return { type: "failed", reason: result.reason };
    }
    const summary = withFileLists(result.text, session);
    const state = { summary, compactedUntil: start + result.folded };
    const memory = buildWorkingMemory({ history: session.history, compaction: state });
    const tokensAfter = estimateRequestTokens({ ...overhead, messages: memory });
    session.applyCompaction(state, { tokensBefore: estimate, tokensAfter });
    const stats = {
      tokensBefore: estimate,
      tokensAfter,
      compactedUntil: state.compactedUntil,
      messagesFolded: result.folded,
    };
    this.#onEvent({ type: "compaction_end", ...stats });
    return { type: "compacted", ...stats };
  }

  /** After a failed summary, automatic attempts pause for a few messages (truncation serves). */
  #coolingDown(session: Session): boolean {
    const failure = this.#lastFailure;
    return failure !== undefined && failure.session === session &&
      session.history.length < failure.retryAt;
  }

  #findCut(
    findCutPoint: typeof import("./cut_point.ts").findCutPoint,
    session: Session,
    start: number,
    force: boolean,
  ) {
    const { keepRecentTokens } = this.#settings;
    const options = { keepRecentTokens, toolOutputLimit: TOOL_OUTPUT_LIMIT };
    const cut = findCutPoint(session.history, start, options);
    if (cut.index > start || !force) return cut;
    return findCutPoint(session.history, start, { ...options, keepRecentTokens: 0 });
  }

  /** The last resort: a request shortened to the threshold, with a warning saying so. */
  async #shrink(
    session: Session,
    overhead: RequestOverhead,
    estimate: number,
    why: string,
  ): Promise<PreparedRequest> {
    const { shortenRequest } = await import("./shrink.ts");
    const threshold = compactionThreshold(this.#settings);
    const shortened = shortenRequest(session, overhead, { threshold, estimate, why });
    if (shortened.type === "too_long") return shortened;
    this.#onEvent({ type: "warning", message: shortened.warning });
    const { messages } = shortened;
    const estimatedTokens = estimateRequestTokens({ ...overhead, messages });
    return { type: "shortened", messages, estimatedTokens };
  }

  #estimate(session: Session, memory: readonly Message[], overhead: RequestOverhead): number {
    return estimateContextTokens(session, memory, {
      ...overhead,
      toolOutputLimit: TOOL_OUTPUT_LIMIT,
    });
  }
}
