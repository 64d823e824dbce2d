/**
 * `/cache`: the share of the session's prompt tokens the provider served from its prefix
 * cache, and where the latest request that broke the prefix first differed.
 *
 * @module
 */
import type { PrefixSummary } from "../session/mod.ts";
import type { Command } from "./command.ts";

/** `/cache`. */
export const cacheCommand: Command = {
  name: "/cache",
  usage: "/cache",
  help: "cached share of the session's requests; where the last miss first differed",
  run: ({ app, screen }) => screen.line(describeCache(app.agent.view.requests)),
};

const BOUNDARIES = { compaction: "a compaction", model: "a model switch", undo: "an undo" };

/**
 * The `/cache` text for `summary`.
 * Contract: pure; names the segment and byte of the latest miss, and the boundary it followed
 * (or that it followed none the README names).
 */
export function describeCache(summary: PrefixSummary): string {
  const { requests, reported, promptTokens, cachedTokens, misses, lastMiss } = summary;
  if (requests === 0) return "Cache: no request sent in this session yet";
  const share = promptTokens === 0 ? 0 : (cachedTokens / promptTokens) * 100;
  const lines = [
    reported === 0
      ? `Cache: ${requests} requests; the provider reported no prompt tokens`
      : `Cache: ${cachedTokens} of ${promptTokens} prompt tokens served from the provider's cache ` +
        `(${share.toFixed(1)} %), ${reported} of ${requests} requests reported`,
  ];
  if (!lastMiss) {
    lines.push("  every request started with the one before it");
    return lines.join("\n");
  }
  const where = lastMiss.byte === undefined
    ? `at ${lastMiss.name}`
    : `at ${lastMiss.name}, byte ${lastMiss.byte}`;
  const why = lastMiss.after
    ? `after ${BOUNDARIES[lastMiss.after]}`
    : "with no compaction, model switch or undo before it";
  lines.push(
    `  ${misses} requests changed the prefix; the last, request ${lastMiss.request}, first ` +
      `differed from the one before ${where} (${why})`,
  );
  return lines.join("\n");
}
