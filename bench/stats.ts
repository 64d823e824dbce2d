/**
 * Summaries of repeated measurements: median, min and max.
 *
 * @module
 */

/** The median, min and max of repeated runs. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  runs: number;
}

/**
 * Summarizes repeated measurements.
 * Contract: throws RangeError for an empty list; the median of an even count is the mean
 * of the two middle values.
 */
export function spread(values: readonly number[]): Spread {
  if (values.length === 0) throw new RangeError("Cannot summarize runs: there are none");
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1
    ? sorted[middle] ?? 0
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  return { median, min: sorted[0] ?? 0, max: sorted.at(-1) ?? 0, runs: sorted.length };
}

/** The mean of `values`; 0 for an empty list. */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Formats a spread as `median (min – max)` with `digits` decimals. */
export function formatSpread(value: Spread, digits: number): string {
  const format = (n: number) => n.toFixed(digits);
  return `${format(value.median)} (${format(value.min)} – ${format(value.max)})`;
}

/** Formats a byte count in B, KB or MB (1 KB = 1024 B). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Milliseconds since the Unix epoch with sub-millisecond resolution, comparable across processes. */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}
