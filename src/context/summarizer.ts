/**
 * The one model call of compaction: asks the model to summarize the folded messages,
 * retrying once with half the prompt budget when the request overflows the context.
 *
 * @module
 */
import { ChatError } from "../chat_model.ts";
import type { ChatModel, ChatRequest } from "../chat_model.ts";
import type { Message } from "../messages.ts";
import { buildSummaryRequest } from "./serialize.ts";
import { type CompactionSettings, compactionThreshold, summaryTokenLimit } from "./settings.ts";

/** What to summarize, and the settings that size the request. */
export interface SummarizeInput {
  settings: CompactionSettings;
  /** The messages to fold, oldest first. */
  messages: readonly Message[];
  /** The message after `messages` is an assistant message continuing the same task. */
  splitTurn: boolean;
  /** The current summary, without its file lists; the new summary updates it. */
  previousSummary?: string | undefined;
}

/** Per-call options of `summarize`. */
export interface SummarizeOptions {
  signal?: AbortSignal;
  /** `/compact` focus text; ignored when empty. */
  focus?: string;
}

/** A summary covering the first `folded` input messages, or why there is none. */
export type SummaryResult =
  | { ok: true; text: string; folded: number }
  | { ok: false; reason: string };

/**
 * Asks `model` (without tools) for a summary of `input.messages`, fitted to the compaction
 * threshold; on a context overflow it retries once with half that budget.
 * Contract: a chat failure, an empty reply or a prompt too large to fold anything becomes
 * `{ ok: false, reason }`; an abort, and any error that is not a ChatError, propagates.
 */
export async function summarize(
  model: ChatModel,
  input: SummarizeInput,
  options: SummarizeOptions = {},
): Promise<SummaryResult> {
  let budgetTokens = compactionThreshold(input.settings);
  for (let attempt = 0;; attempt++) {
    const request = summaryRequest(input, budgetTokens, options.focus);
    if (request.folded === 0) {
      return { ok: false, reason: "the summary prompt alone exceeds the context window" };
    }
    try {
      const reply = await model.complete(
        request.chat,
        options.signal ? { signal: options.signal } : {},
      );
      const text = reply.message.content.trim();
      if (text === "") return { ok: false, reason: "the model returned an empty summary" };
      return { ok: true, text, folded: request.folded };
    } catch (error) {
      if (!(error instanceof ChatError) || error.kind === "aborted") throw error;
      options.signal?.throwIfAborted();
      if (error.kind !== "context_overflow" || attempt > 0) {
        return { ok: false, reason: error.message };
      }
      budgetTokens = Math.floor(budgetTokens / 2);
    }
  }
}

function summaryRequest(
  { settings, messages, splitTurn, previousSummary }: SummarizeInput,
  budgetTokens: number,
  focus: string | undefined,
): { chat: ChatRequest; folded: number } {
  const { maxOutputTokens } = settings;
  const { system, messages: prompt, folded } = buildSummaryRequest({
    messages,
    budgetTokens,
    splitTurn,
    maxSummaryTokens: summaryTokenLimit(settings),
    ...(previousSummary !== undefined ? { previousSummary } : {}),
    ...(focus ? { focus } : {}),
  });
  const limit = maxOutputTokens === undefined ? {} : { maxOutputTokens };
  return { chat: { system, messages: prompt, ...limit }, folded };
}
