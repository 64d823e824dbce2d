/**
 * One model request of a task, as the context decides it: the working memory (compacted
 * first when it nears the window, shortened as a last resort), sent, and sent once more
 * after a forced compaction when it does not fit. The reply joins the session with its
 * usage as the new snapshot, unless the request was shortened: such usage does not measure
 * the working memory.
 *
 * @module
 */
import { ChatError, type ChatReply, type ChatRequest } from "../model/mod.ts";
import type { CompactionEvent } from "../core/mod.ts";
import type { Session } from "../session/mod.ts";
import type { Compactor } from "./compactor.ts";
import { overheadKey, type RequestOverhead } from "./tokens.ts";

/** What a request step needs besides the session. */
export interface RequestStepOptions {
  signal: AbortSignal;
  /**
   * Sends one request to the model (streaming its reply wherever the caller shows it);
   * `admitRetry` is the budget's check of each retry, for the model's `ChatOptions`.
   */
  send: (
    request: ChatRequest,
    retries: { admitRetry: () => string | undefined },
  ) => Promise<ChatReply>;
  /**
   * Warnings, and `discard_partial` when a reply that streamed in part is abandoned for
   * the retry after compaction.
   */
  onEvent: (event: CompactionEvent | { type: "discard_partial" }) => void;
  /**
   * The budget: given the request's estimate and its output limit (undefined when none is
   * configured), the line refusing it, or undefined to send it.
   */
  admit?: (promptTokens: number, outputTokens: number | undefined) => string | undefined;
  /**
   * The budget's output cap for a request of about `promptTokens` when no output limit is
   * configured (see `Spending.replyAllowance`): sent as the request's output limit and
   * checked by `admit`; undefined to send no cap.
   */
  replyAllowance?: (promptTokens: number) => number | undefined;
  /** Runs before the step compacts the session to make room (the `PreCompact` hooks). */
  beforeCompact?: () => Promise<void>;
}

/**
 * How a request step ended: the reply (already in the session), why no request fits, or
 * why the budget refused the request (nothing was sent).
 */
export type StepOutcome =
  | { type: "reply"; reply: ChatReply }
  | { type: "too_long"; message: string }
  | { type: "budget"; message: string };

/** One attempt that did not fit: the provider's overflow error, or the Compactor's reason. */
interface Overflow {
  type: "overflow";
  message: string;
  partialOutput: boolean;
}

const GIVE_UP =
  'still too long after compaction: lower "contextWindow" in provider.json to the model\'s real window';

/**
 * Asks the model for the next step of `session`.
 * Contract: when the request does not fit (the provider's context overflow, or the
 * Compactor finds none that fits) it warns, compacts by force and sends once more; a second
 * time is "too_long". A request the budget refuses is not sent ("budget"), nor is a retry
 * it refuses (a dropped stream, 5xx, 429: "budget" too, after what was served). Without a
 * configured output limit the request carries the budget's reply allowance as its cap. Other chat
 * failures and an abort propagate; history gains only the reply.
 */
export async function requestStep(
  compactor: Compactor,
  session: Session,
  overhead: RequestOverhead,
  options: RequestStepOptions,
): Promise<StepOutcome> {
  const first = await attempt(compactor, session, overhead, options, false);
  if (first.type !== "overflow") return first;
  if (first.partialOutput) options.onEvent({ type: "discard_partial" });
  options.onEvent({ type: "warning", message: `${first.message}; compacting and retrying once` });
  const second = await attempt(compactor, session, overhead, options, true);
  if (second.type !== "overflow") return second;
  return { type: "too_long", message: `${second.message}; ${GIVE_UP}` };
}

async function attempt(
  compactor: Compactor,
  session: Session,
  overhead: RequestOverhead,
  options: RequestStepOptions,
  force: boolean,
): Promise<StepOutcome | Overflow> {
  const prepared = await compactor.prepareRequest(session, overhead, {
    signal: options.signal,
    force,
    ...(options.beforeCompact ? { beforeCompact: options.beforeCompact } : {}),
  });
  if (prepared.type === "too_long") {
    return { type: "overflow", message: prepared.reason, partialOutput: false };
  }
  const maxOutputTokens = compactor.settings.maxOutputTokens ??
    options.replyAllowance?.(prepared.estimatedTokens);
  // Each retry is checked as the first attempt is, on the same estimate and output cap.
  const admitRetry = () => options.admit?.(prepared.estimatedTokens, maxOutputTokens);
  const refusal = admitRetry();
  if (refusal !== undefined) return { type: "budget", message: refusal };
  let reply: ChatReply;
  try {
    reply = await options.send({
      ...overhead,
      messages: prepared.messages,
      ...(maxOutputTokens ? { maxOutputTokens } : {}),
    }, { admitRetry });
  } catch (error) {
    if (error instanceof ChatError && error.kind === "budget") {
      return { type: "budget", message: error.message };
    }
    if (!(error instanceof ChatError) || error.kind !== "context_overflow") throw error;
    return { type: "overflow", message: error.message, partialOutput: error.partialOutput };
  }
  session.append(reply.message);
  if (prepared.type === "working_memory") {
    const { totalTokens } = reply;
    session.recordUsage(
      totalTokens === undefined
        ? undefined
        : { totalTokens, historyLength: session.history.length, overhead: overheadKey(overhead) },
    );
  }
  return { type: "reply", reply };
}
