/**
 * The spending fields of provider.json: `pricing` (US dollars per million tokens) and
 * `budget` (what one session may spend).
 *
 * @module
 */
import { type BudgetLimits, isObject, isPositiveInteger, type Pricing } from "../core/mod.ts";
import { numberField } from "./number_field.ts";

/** The provider.json fields this module reads. */
export const SPENDING_FIELDS = ["pricing", "budget"];

/**
 * `pricing` and `budget` of a provider file's fields, each present only when set.
 * Contract: pushes one line per bad field to `problems` (naming it and its value); never throws.
 */
export function readSpendingFields(
  fields: Record<string, unknown>,
  problems: string[],
): { pricing?: Pricing; budget?: BudgetLimits } {
  const pricing = readPricing(fields.pricing, problems);
  const budget = readBudget(fields.budget, problems);
  if (budget?.cost !== undefined && fields.pricing === undefined) {
    problems.push(`field "budget.cost" needs "pricing" (dollars per million tokens)`);
  }
  return { ...(pricing ? { pricing } : {}), ...(budget ? { budget } : {}) };
}

function readPricing(value: unknown, problems: string[]): Pricing | undefined {
  if (value === undefined) return undefined;
  const shape = '{"input": N, "cachedInput": N, "output": N} (dollars per million tokens)';
  if (!isObject(value)) {
    problems.push(`field "pricing" must be ${shape}, got ${JSON.stringify(value)}`);
    return undefined;
  }
  const before = problems.length;
  unknownKeys(value, "pricing", ["input", "cachedInput", "output"], problems);
  const input = price(value, "input", problems, true);
  const cachedInput = price(value, "cachedInput", problems, false);
  const output = price(value, "output", problems, true);
  if (problems.length > before || input === undefined || output === undefined) return undefined;
  return { input, output, ...(cachedInput !== undefined ? { cachedInput } : {}) };
}

/**
 * A `budget` field's limits; undefined when absent or bad.
 * Contract: pushes one line per bad part to `problems`; never throws.
 */
export function readBudget(value: unknown, problems: string[]): BudgetLimits | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) {
    problems.push(
      `field "budget" must be {"tokens": N, "cost": USD}, got ${JSON.stringify(value)}`,
    );
    return undefined;
  }
  const before = problems.length;
  unknownKeys(value, "budget", ["tokens", "cost"], problems);
  const { tokens, cost } = value;
  if (tokens !== undefined && !isPositiveInteger(tokens)) {
    problems.push(
      `field "budget.tokens" must be a positive integer, got ${JSON.stringify(tokens)}`,
    );
  }
  if (cost !== undefined && !isPositiveNumber(cost)) {
    problems.push(`field "budget.cost" must be a positive number, got ${JSON.stringify(cost)}`);
  }
  if (problems.length > before) return undefined;
  return {
    ...(typeof tokens === "number" ? { tokens } : {}),
    ...(typeof cost === "number" ? { cost } : {}),
  };
}

function price(
  fields: Record<string, unknown>,
  name: string,
  problems: string[],
  required: boolean,
): number | undefined {
  return numberField(fields, name, problems, {
    label: `pricing.${name}`,
    required,
    accept: (value): value is number =>
      typeof value === "number" && Number.isFinite(value) && value >= 0,
    expected: "a number of dollars per million tokens",
  });
}

function unknownKeys(
  value: Record<string, unknown>,
  field: string,
  known: readonly string[],
  problems: string[],
): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) problems.push(`field "${field}.${key}" is unknown`);
  }
}

/** Whether `value` is a finite number above zero. */
export function isPositiveNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}
