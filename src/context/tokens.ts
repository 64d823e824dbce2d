/**
 * Token estimation for compaction decisions and the fit check: texts as `estimateTextTokens`
 * counts them, plus small fixed overheads per message and tool call; anchored on the last
 * reported usage where there is one.
 *
 * @module
 */
import type { Message, ToolDefinition } from "../core/mod.ts";
import type { Session } from "../session/mod.ts";
import { estimateImageTokens } from "./image_tokens.ts";
import { LongTextMemo } from "./long_text_memo.ts";
import { estimateTextTokens } from "./text_tokens.ts";

export { estimateTextTokens } from "./text_tokens.ts";
export { estimateImageTokens } from "./image_tokens.ts";

/** Tokens counted per message for its role and separators. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens counted per tool call for its framing, besides id, name and arguments. */
export const TOOL_CALL_OVERHEAD_TOKENS = 3;
/** Tokens counted for the marker a truncated tool output carries. */
export const TRUNCATION_MARKER_TOKENS = 12;
const REQUEST_OVERHEAD_TOKENS = 3;
/** How far `estimateTextTokens` may overshoot ordinary text; used to under-count safely. */
const MAX_OVERSHOOT = 1.25;

/** What a request carries besides its messages. */
export interface RequestOverhead {
  system: string;
  tools: readonly ToolDefinition[];
}

/** How tool outputs will be shown, so estimates match what is sent. */
export interface EstimateOptions {
  /** Tool outputs longer than this many characters are estimated as head + marker + tail. */
  toolOutputLimit?: number;
}

/**
 * Estimates one message: its content, images, tool call ids, names and arguments, and
 * overheads.
 * Contract: pure; with `toolOutputLimit` a long tool output counts as the part the
 * working memory shows (the first and last `limit / 2` characters plus a marker).
 */
export function estimateMessageTokens(message: Message, options: EstimateOptions = {}): number {
  switch (message.role) {
    case "user": {
      let tokens = MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(message.content);
      for (const image of message.images ?? []) tokens += estimateImageTokens(image);
      return tokens;
    }
    case "assistant": {
      let tokens = MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(message.content) +
        estimateTextTokens(message.thinkBlock ?? "");
      // Reasoning is sent back only on thinking-mode tool-call turns (see src/model/wire.ts).
      if (message.replayReasoning && message.toolCalls.length > 0) {
        tokens += estimateTextTokens(message.reasoning ?? "");
      }
      for (const call of message.toolCalls) {
        tokens += TOOL_CALL_OVERHEAD_TOKENS + estimateTextTokens(call.id) +
          estimateTextTokens(call.name) + estimateTextTokens(call.arguments);
      }
      return tokens;
    }
    case "tool":
      return MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(message.toolCallId) +
        estimateShownTokens(message.content, options.toolOutputLimit);
    default: {
      const unknown: never = message;
      throw new TypeError(`Cannot estimate message: unknown role in ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * Estimates a whole request: system prompt, every message and the tool definitions' JSON.
 * Contract: pure; cost is linear in the request's size.
 */
export function estimateRequestTokens(
  request: { system: string; messages: readonly Message[]; tools?: readonly ToolDefinition[] },
): number {
  let tokens = REQUEST_OVERHEAD_TOKENS + MESSAGE_OVERHEAD_TOKENS +
    estimateTextTokens(request.system);
  for (const message of request.messages) tokens += estimateMessageTokens(message);
  if (request.tools && request.tools.length > 0) {
    tokens += estimateTextTokens(JSON.stringify(request.tools));
  }
  return tokens;
}

/**
 * Estimates the context the next request will use. With a usable usage snapshot (positive
 * `totalTokens`, `historyLength` between `compactedUntil` and the history length) it is
 * `usage.totalTokens` plus the estimate of the history messages after
 * `usage.historyLength`; otherwise the full estimate of `system`, `workingMemory` and `tools`.
 * A snapshot taken with another system prompt or other tool definitions (its `overhead` key
 * differs) is not usable: it does not count what the request now carries.
 * Contract: pure; cost depends on the messages after the snapshot (or on the working
 * memory), never on the whole history.
 */
export function estimateContextTokens(
  session: Pick<Session, "history" | "usage" | "compaction">,
  workingMemory: readonly Message[],
  options: RequestOverhead & EstimateOptions,
): number {
  const { history } = session;
  const usage = usableUsage(session, options);
  if (!usage) return estimateRequestTokens({ ...options, messages: workingMemory });
  let tokens = usage.totalTokens;
  for (let index = usage.historyLength; index < history.length; index++) {
    const message = history[index];
    if (message) tokens += estimateMessageTokens(message, options);
  }
  return tokens;
}

/**
 * Estimates the request made of `system`, `tools` and `prefix`, the working memory up to
 * history index `end`. With a usable usage snapshot it is anchored like
 * `estimateContextTokens`: the snapshot, plus the messages between it and `end`, minus those
 * between `end` and it counted at their lowest likely size (estimate / 1.25); never more
 * than the full estimate of the request.
 * Contract: pure; cost is linear in the prefix.
 */
export function estimatePrefixTokens(
  session: Pick<Session, "history" | "usage" | "compaction">,
  end: number,
  prefix: readonly Message[],
  options: RequestOverhead & EstimateOptions,
): number {
  const full = estimateRequestTokens({ ...options, messages: prefix });
  const usage = usableUsage(session, options);
  if (!usage) return full;
  let tokens = usage.totalTokens;
  for (let index = usage.historyLength; index < end; index++) {
    const message = session.history[index];
    if (message) tokens += estimateMessageTokens(message, options);
  }
  for (let index = end; index < usage.historyLength; index++) {
    const message = session.history[index];
    if (message) tokens -= estimateMessageTokens(message, options) / MAX_OVERSHOOT;
  }
  return Math.min(full, Math.ceil(tokens));
}

const fingerprints = new LongTextMemo(fingerprint);

/**
 * A short fingerprint of what a request carries besides its messages: the system prompt and
 * every tool definition, as sent. A usage snapshot keeps the one of the request it measured;
 * when the next request's differs (MCP tools added on resume, another AGENTS.md), the
 * snapshot no longer measures it.
 * Contract: pure; equal overheads give equal keys; cost is linear in their size.
 */
export function overheadKey(overhead: RequestOverhead): string {
  return fingerprints.of(`${overhead.system}\u0000${JSON.stringify(overhead.tools)}`);
}

function fingerprint(text: string): string {
  // FNV-1a over the UTF-16 code units, 32 bits twice (two offsets): no crypto needed for a
  // comparison of our own bytes, and synchronous, since every estimate asks.
  let low = 0x811c9dc5;
  let high = 0x01000193 ^ text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    low = Math.imul(low ^ code, 0x01000193);
    high = Math.imul(high ^ code, 0x5bd1e995);
  }
  const hex = (value: number) => (value >>> 0).toString(16).padStart(8, "0");
  return `${text.length.toString(36)}-${hex(low)}${hex(high)}`;
}

function usableUsage(
  session: Pick<Session, "history" | "usage" | "compaction">,
  overhead: RequestOverhead,
): Session["usage"] {
  const { usage } = session;
  const compactedUntil = session.compaction?.compactedUntil ?? 0;
  const usable = usage !== undefined && usage.totalTokens > 0 &&
    usage.historyLength >= compactedUntil && usage.historyLength <= session.history.length &&
    (usage.overhead === undefined || usage.overhead === overheadKey(overhead));
  return usable ? usage : undefined;
}

function estimateShownTokens(text: string, limit: number | undefined): number {
  if (limit === undefined || text.length <= limit) return estimateTextTokens(text);
  const head = Math.floor(limit / 2);
  return estimateTextTokens(text.slice(0, head)) +
    estimateTextTokens(text.slice(text.length - (limit - head))) + TRUNCATION_MARKER_TOKENS;
}
