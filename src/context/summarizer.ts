/**
 * The one model call of compaction: asks the model to summarize the folded messages, where
 * possible by appending the instruction to the conversation as the model saw it (a prefix
 * the provider has cached), else with the messages serialized into one request, retrying
 * that once with half the prompt budget when it overflows the context.
 *
 * @module
 */
import { ChatError, type ChatModel, type ChatRequest } from "../model/mod.ts";
import type { Message } from "../core/mod.ts";
import { buildSummaryRequest } from "./serialize.ts";
import { type CompactionSettings, compactionThreshold, summaryTokenLimit } from "./settings.ts";
import { inPlaceInstruction } from "./summary_prompt.ts";
import type { Session } from "../session/mod.ts";
import { estimateMessageTokens, estimatePrefixTokens, type RequestOverhead } from "./tokens.ts";
import { buildWorkingMemory, TOOL_OUTPUT_LIMIT } from "./working_memory.ts";

/** What to summarize, and the settings that size the request. */
export interface SummarizeInput {
  settings: CompactionSettings;
  /** The messages to fold, oldest first. */
  messages: readonly Message[];
  /** The message after `messages` is an assistant message continuing the same task. */
  splitTurn: boolean;
  /** The current summary, without its file lists; the new summary updates it. */
  previousSummary?: string | undefined;
  /**
   * The last request as the model saw it, up to the first kept message (system prompt,
   * tools, and the working memory before the cut), with its estimated tokens. When given,
   * the summary is first asked for by appending the instruction to it; when that would not
   * fit the threshold, overflows or brings no text, the serialized form is used.
   */
  conversation?: { request: ChatRequest; tokens: number } | undefined;
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
 * The request the model saw, up to history index `end` (the first kept message), and its
 * estimate, for `SummarizeInput.conversation`; undefined when the model saw a folded tool
 * output cut (over `TOOL_OUTPUT_LIMIT` characters), which the serialized form shows whole.
 * Contract: never changes the session; work is linear in the messages before `end`.
 */
export function summaryConversation(
  session: Session,
  overhead: RequestOverhead,
  end: number,
): SummarizeInput["conversation"] {
  const start = session.compaction?.compactedUntil ?? 0;
  for (let index = start; index < end; index++) {
    const message = session.history[index];
    if (message?.role === "tool" && message.content.length > TOOL_OUTPUT_LIMIT) return undefined;
  }
  const messages = buildWorkingMemory(session, { end });
  const options = { ...overhead, toolOutputLimit: TOOL_OUTPUT_LIMIT };
  const tokens = estimatePrefixTokens(session, end, messages, options);
  return { request: { ...overhead, messages }, tokens };
}

/**
 * Asks `model` for a summary of `input.messages`: appended to `input.conversation` when
 * given and it fits the compaction threshold, else (and after an overflow or an empty reply
 * there) serialized without tools, fitted to the threshold, retried once with half that
 * budget on a context overflow.
 * Contract: a chat failure, an empty reply or a prompt too large to fold anything becomes
 * `{ ok: false, reason }`; an abort, and any error that is not a ChatError, propagates.
 */
export async function summarize(
  model: ChatModel,
  input: SummarizeInput,
  options: SummarizeOptions = {},
): Promise<SummaryResult> {
  if (input.conversation) {
    const result = await summarizeInPlace(model, input, input.conversation, options);
    if (result) return result;
  }
  return await summarizeSerialized(model, input, options);
}

/** The summary asked for after the conversation itself; undefined to fall back. */
async function summarizeInPlace(
  model: ChatModel,
  input: SummarizeInput,
  conversation: { request: ChatRequest; tokens: number },
  options: SummarizeOptions,
): Promise<SummaryResult | undefined> {
  const { settings } = input;
  const prefix = conversation.request.messages;
  const instruction = inPlaceInstruction({
    previousSummary: input.previousSummary !== undefined,
    maxSummaryTokens: summaryTokenLimit(settings),
    ...(options.focus ? { focus: options.focus } : {}),
  }, input.splitTurn);
  const ask: Message = { role: "user", content: instruction };
  const messages = [...prefix, ask];
  if (conversation.tokens + estimateMessageTokens(ask) > compactionThreshold(settings)) {
    return undefined;
  }
  const { maxOutputTokens } = settings;
  const request: ChatRequest = {
    ...conversation.request,
    messages,
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
  };
  try {
    const reply = await model.complete(request, options.signal ? { signal: options.signal } : {});
    const text = reply.message.content.trim();
    return text === "" ? undefined : { ok: true, text, folded: input.messages.length };
  } catch (error) {
    if (!(error instanceof ChatError) || error.kind === "aborted") throw error;
    options.signal?.throwIfAborted();
    return error.kind === "context_overflow" ? undefined : { ok: false, reason: error.message };
  }
}

async function summarizeSerialized(
  model: ChatModel,
  input: SummarizeInput,
  options: SummarizeOptions,
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
