/**
 * Where to cut history for compaction: which messages are folded into the summary
 * and which stay verbatim.
 *
 * @module
 */
import type { Message } from "../core/mod.ts";
import { estimateMessageTokens } from "./tokens.ts";

/** Where kept messages begin. */
export interface CutPoint {
  /** Absolute history index of the first kept message; `startIndex` when nothing can be folded. */
  index: number;
  /** The cut lands inside a task: the kept part begins with an assistant message. */
  splitTurn: boolean;
}

/** How much to keep. */
export interface CutPointOptions {
  /** About how many tokens of the newest messages to keep verbatim. */
  keepRecentTokens: number;
  /** Tool outputs are estimated as the working memory shows them (see `estimateMessageTokens`). */
  toolOutputLimit?: number;
}

/**
 * Finds the cut for `messages[startIndex..]`: walks back from the newest message until
 * about `keepRecentTokens` are kept, then forward to the first user or assistant message,
 * so a tool call and its results are never split. When only tool results follow, it moves
 * back to the assistant message that asked for them instead.
 * Contract: pure; `startIndex <= index < messages.length` whenever there is anything after
 * `startIndex`; `index === startIndex` means nothing to compact; `messages[index]` is never
 * a tool result when `index > startIndex`. Reads only the kept part plus the messages
 * skipped to reach a boundary.
 */
export function findCutPoint(
  messages: readonly Message[],
  startIndex: number,
  options: CutPointOptions,
): CutPoint {
  const nothing = { index: startIndex, splitTurn: false };
  const candidate = keepBoundary(messages, startIndex, options);
  if (candidate <= startIndex) return nothing;
  const index = nearestTurnBoundary(messages, candidate, startIndex);
  if (index <= startIndex) return nothing;
  return { index, splitTurn: messages[index]?.role === "assistant" };
}

function keepBoundary(
  messages: readonly Message[],
  startIndex: number,
  options: CutPointOptions,
): number {
  const estimate = options.toolOutputLimit === undefined
    ? {}
    : { toolOutputLimit: options.toolOutputLimit };
  let kept = 0;
  for (let index = messages.length - 1; index > startIndex; index--) {
    const message = messages[index];
    if (message) kept += estimateMessageTokens(message, estimate);
    if (kept >= options.keepRecentTokens) return index;
  }
  return startIndex;
}

function nearestTurnBoundary(
  messages: readonly Message[],
  candidate: number,
  startIndex: number,
): number {
  for (let index = candidate; index < messages.length; index++) {
    if (messages[index]?.role !== "tool") return index;
  }
  for (let index = candidate - 1; index > startIndex; index--) {
    if (messages[index]?.role !== "tool") return index;
  }
  return startIndex;
}
