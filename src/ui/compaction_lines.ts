/**
 * The lines that open and close a compaction, worded by what started it.
 *
 * @module
 */
import type { CompactionEvent } from "../core/mod.ts";

type Start = Extract<CompactionEvent, { type: "compaction_start" }>;
type End = Extract<CompactionEvent, { type: "compaction_end" }>;

/** `Context approaching limit …` (automatic), `Compacting as asked …` (/compact), or overflow. */
export function compactionStartLine(event: Start): string {
  const use = `approx ${event.estimatedTokens} / ${event.contextWindow} tokens, ${
    Math.round(event.estimatedTokens / event.contextWindow * 100)
  } %`;
  switch (event.reason) {
    case "automatic":
      return `Context approaching limit (approx ${event.estimatedTokens} / ${event.contextWindow} tokens), compressing earlier messages...`;
    case "manual":
      return `Compacting as asked (${use})...`;
    case "overflow":
      return "Request too long for the model: compressing earlier messages...";
    default: {
      const never: never = event.reason;
      return never;
    }
  }
}

/** `✓ Context compression complete: …`, without internal field names. */
export function compactionEndLine(event: End): string {
  return `✓ Context compression complete: approx ${event.tokensBefore} → ${event.tokensAfter} ` +
    `tokens, ${event.messagesFolded} earlier messages summarized`;
}
