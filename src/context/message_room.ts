/**
 * How large one user message may be: what a task brings in at once (attached files, a
 * paste) must leave room for the rest of the request, since compaction can fold earlier
 * messages but never the newest one.
 *
 * @module
 */
import { type CompactionSettings, compactionThreshold } from "./settings.ts";
import { estimateRequestTokens, type RequestOverhead } from "./tokens.ts";

/**
 * The most tokens one user message may take: half of what the compaction threshold leaves
 * after the system prompt and the tool definitions, so the message, a summary of what came
 * before and the steps it starts still fit the window.
 * Contract: pure; at least 0.
 */
export function messageRoom(settings: CompactionSettings, overhead: RequestOverhead): number {
  const fixed = estimateRequestTokens({ ...overhead, messages: [] });
  return Math.max(0, Math.floor((compactionThreshold(settings) - fixed) / 2));
}
