/**
 * What a run spends: token tallies, prices, budget limits and the cost they come to. The
 * context meters and enforces them, the config reads them, the front end shows them.
 *
 * @module
 */

/** Prices in US dollars per million tokens (`pricing` in provider.json). */
export interface Pricing {
  input: number;
  /** Prompt tokens served from the provider's cache; `input` when absent. */
  cachedInput?: number;
  output: number;
}

/** Limits on what one session may spend (`--max-tokens`, `--max-cost`, `budget`). */
export interface BudgetLimits {
  /** Prompt plus completion tokens over all requests. */
  tokens?: number;
  /** US dollars, at `pricing`. */
  cost?: number;
}

/** Tokens spent over some requests, as the provider counted them. */
export interface Tally {
  /** Model replies: the task loop's steps and compaction summaries. */
  requests: number;
  /** Replies to the task loop's steps (what `--max-steps` counts). */
  steps: number;
  promptTokens: number;
  /** The part of `promptTokens` the provider served from its cache. */
  cachedTokens: number;
  completionTokens: number;
  /** Replies whose tokens were estimated because the provider reported no usage. */
  estimated: number;
  /** US dollars, each reply at the prices of the profile that served it. */
  cost: number;
  /** Replies served by a profile without prices (not in `cost`). */
  unpriced: number;
}

/** What the task and the session have spent so far, with costs when prices are known. */
export interface SpendReport {
  task: Tally;
  session: Tally;
  /** US dollars, when the model in use has prices and every reply counted had them. */
  taskCost?: number;
  sessionCost?: number;
  /** The prices of the model in use. */
  pricing?: Pricing;
  limits: BudgetLimits;
  /** What each subagent of the session spent (its own subagents included), in start order. */
  children?: ChildSpend[];
}

/** What one subagent spent. */
export interface ChildSpend {
  /** The agent and the task's label: `explore · read the config`. */
  label: string;
  tally: Tally;
  /** US dollars, when every reply it counted had prices. */
  cost?: number;
}

/** A tally of nothing. */
export function emptyTally(): Tally {
  return {
    requests: 0,
    steps: 0,
    promptTokens: 0,
    cachedTokens: 0,
    completionTokens: 0,
    estimated: 0,
    cost: 0,
    unpriced: 0,
  };
}

/** Prompt plus completion tokens: what a token budget counts. */
export function tallyTokens(tally: Tally): number {
  return tally.promptTokens + tally.completionTokens;
}

/**
 * The cost of `tally` in US dollars: uncached prompt tokens at `input`, cached ones at
 * `cachedInput` (or `input`), completion tokens at `output`.
 * Contract: pure.
 */
export function costOf(
  tally: Pick<Tally, "promptTokens" | "cachedTokens" | "completionTokens">,
  pricing: Pricing,
): number {
  const uncached = tally.promptTokens - tally.cachedTokens;
  const cachedPrice = pricing.cachedInput ?? pricing.input;
  return (uncached * pricing.input + tally.cachedTokens * cachedPrice +
    tally.completionTokens * pricing.output) / 1_000_000;
}

/** Dollars as `$1.23`, or with four decimals below one dollar (`$0.0123`). */
export function formatUsd(dollars: number): string {
  return `$${dollars.toFixed(dollars >= 1 ? 2 : 4)}`;
}
