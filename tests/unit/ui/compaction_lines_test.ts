import { assertEquals } from "@std/assert";
import { compactionEndLine, compactionStartLine } from "../../../src/ui/compaction_lines.ts";

Deno.test("compactionStartLine() says why: near the limit, as asked, or after an overflow", () => {
  const event = { type: "compaction_start" as const, estimatedTokens: 1500, contextWindow: 32000 };
  assertEquals(
    compactionStartLine({ ...event, reason: "automatic" }),
    "Context approaching limit (approx 1500 / 32000 tokens), compressing earlier messages...",
  );
  assertEquals(
    compactionStartLine({ ...event, reason: "manual" }),
    "Compacting as asked (approx 1500 / 32000 tokens, 5 %)...",
  );
  assertEquals(
    compactionStartLine({ ...event, reason: "overflow" }),
    "Request too long for the model: compressing earlier messages...",
  );
});

Deno.test("compactionEndLine() names no internal field", () => {
  assertEquals(
    compactionEndLine({
      type: "compaction_end",
      tokensBefore: 9000,
      tokensAfter: 2000,
      compactedUntil: 40,
      messagesFolded: 40,
    }),
    "✓ Context compression complete: approx 9000 → 2000 tokens, 40 earlier messages summarized",
  );
});
