/**
 * Reasoning effort: the levels a profile may ask for and how the request carries one.
 *
 * @module
 */
import type { ProviderCompat } from "./compat.ts";

/** The levels `reasoningEffort` and `/effort` take, least first. */
export const REASONING_EFFORTS = ["minimal", "low", "medium", "high"] as const;

/** How hard a reasoning model thinks before it answers. */
export type ReasoningEffort = typeof REASONING_EFFORTS[number];

/** Whether `value` is one of {@linkcode REASONING_EFFORTS}. */
export function isReasoningEffort(value: unknown): value is ReasoningEffort {
  return REASONING_EFFORTS.some((level) => level === value);
}

/**
 * The request fields that carry `effort` where `field` says: `{reasoning_effort: effort}`
 * or `{reasoning: {effort}}`; none without an effort.
 * Contract: pure.
 */
export function effortFields(
  field: ProviderCompat["reasoningEffortField"],
  effort: ReasoningEffort | undefined,
): Record<string, unknown> {
  if (effort === undefined) return {};
  return field === "reasoning.effort" ? { reasoning: { effort } } : { "reasoning_effort": effort };
}
