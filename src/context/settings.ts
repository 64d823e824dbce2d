/**
 * Compaction settings: defaults, clamping for small context windows, validation.
 *
 * @module
 */

/** Tokens kept free for the model's answer when the window is large enough. */
export const DEFAULT_RESERVE_TOKENS = 16384;
/** Tokens of recent messages kept verbatim when the window is large enough. */
export const DEFAULT_KEEP_RECENT_TOKENS = 20000;
/** The longest summary asked for, in tokens, however large the window. */
export const SUMMARY_TOKEN_CAP = 4000;
const MAX_DEFAULT_SHARE = 0.25;

/** Settings as configured; absent fields take clamped defaults. */
export interface CompactionSettingsInput {
  contextWindow: number;
  reserveTokens?: number;
  keepRecentTokens?: number;
  maxOutputTokens?: number;
}

/** Settings the Compactor works with. */
export interface CompactionSettings {
  contextWindow: number;
  /** Room left for the answer: compaction starts above `contextWindow - reserveTokens`. */
  reserveTokens: number;
  /** About how many tokens of the newest messages stay verbatim after compaction. */
  keepRecentTokens: number;
  /** The output limit sent with each request, when configured. */
  maxOutputTokens?: number;
}

/**
 * Lists what makes the settings unusable, one line per problem naming the field and value.
 * Contract: pure; an empty list means `resolveCompactionSettings` will not throw.
 */
export function validateCompactionSettings(input: CompactionSettingsInput): string[] {
  const problems: string[] = [];
  const fields = [
    ["contextWindow", input.contextWindow],
    ["reserveTokens", input.reserveTokens],
    ["keepRecentTokens", input.keepRecentTokens],
    ["maxOutputTokens", input.maxOutputTokens],
  ] as const;
  for (const [name, value] of fields) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value <= 0)) {
      problems.push(`field "${name}" (${value}) must be a positive integer`);
    }
  }
  if (problems.length > 0) return problems;
  const { contextWindow, reserveTokens, keepRecentTokens, maxOutputTokens } = input;
  if (reserveTokens !== undefined && reserveTokens >= contextWindow) {
    problems.push(`field "reserveTokens" (${reserveTokens}) must be below contextWindow`);
  }
  if (maxOutputTokens !== undefined && maxOutputTokens >= contextWindow) {
    problems.push(`field "maxOutputTokens" (${maxOutputTokens}) must be below contextWindow`);
  }
  if (problems.length === 0 && keepRecentTokens !== undefined) {
    const threshold = compactionThreshold(resolveUnchecked(input));
    if (keepRecentTokens >= threshold) {
      problems.push(
        `field "keepRecentTokens" (${keepRecentTokens}) must be below contextWindow - reserveTokens (${threshold})`,
      );
    }
  }
  return problems;
}

/**
 * Fills in defaults: reserve = min(16384, 25% of the window), keepRecent = min(20000,
 * 25% of (window - reserve)); the reserve is raised to `maxOutputTokens` when that is set.
 * Explicit values are used as given.
 * Contract: throws `RangeError` listing every problem `validateCompactionSettings` finds.
 */
export function resolveCompactionSettings(input: CompactionSettingsInput): CompactionSettings {
  const problems = validateCompactionSettings(input);
  if (problems.length > 0) {
    throw new RangeError(`Cannot use compaction settings: ${problems.join("; ")}`);
  }
  return resolveUnchecked(input);
}

/**
 * The estimated context size above which the Compactor compacts: window - reserve.
 * Contract: pure.
 */
export function compactionThreshold(settings: CompactionSettings): number {
  return settings.contextWindow - settings.reserveTokens;
}

/**
 * How long a summary may be: min(4000, reserveTokens, a quarter of the threshold), so the
 * summary and the kept messages fit under the threshold together.
 * Contract: pure.
 */
export function summaryTokenLimit(settings: CompactionSettings): number {
  return Math.min(
    SUMMARY_TOKEN_CAP,
    settings.reserveTokens,
    Math.floor(compactionThreshold(settings) / 4),
  );
}

function resolveUnchecked(input: CompactionSettingsInput): CompactionSettings {
  const { contextWindow, maxOutputTokens } = input;
  const reserveTokens = Math.max(
    input.reserveTokens ??
      Math.min(DEFAULT_RESERVE_TOKENS, Math.floor(contextWindow * MAX_DEFAULT_SHARE)),
    maxOutputTokens ?? 0,
  );
  const keepRecentTokens = input.keepRecentTokens ??
    Math.min(
      DEFAULT_KEEP_RECENT_TOKENS,
      Math.floor((contextWindow - reserveTokens) * MAX_DEFAULT_SHARE),
    );
  return {
    contextWindow,
    reserveTokens,
    keepRecentTokens,
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
  };
}
