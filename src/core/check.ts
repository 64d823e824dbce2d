/**
 * Small checkers that narrow outside data from `unknown`: provider files, session
 * records, provider replies and error bodies, tool arguments.
 *
 * @module
 */

/** A table of field checkers: `{ name: isString }` accepts objects whose `name` is a string. */
export type Shape = Record<string, (value: unknown) => boolean>;

/** Whether `value` is a plain JSON object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether `value` is a string. */
export function isString(value: unknown): value is string {
  return typeof value === "string";
}

/** Whether `value` is a safe integer ≥ 0. */
export function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/** Whether `value` is a safe integer ≥ 1. */
export function isPositiveInteger(value: unknown): value is number {
  return isCount(value) && value >= 1;
}

/**
 * Whether `value` is an object whose own fields pass every checker of `shape`.
 * Contract: false when `shape` is undefined; fields inherited from prototypes never count.
 */
export function hasShape(value: unknown, shape: Shape | undefined): boolean {
  return isObject(value) && shape !== undefined &&
    Object.entries(shape).every(([key, check]) =>
      check(Object.hasOwn(value, key) ? value[key] : undefined)
    );
}

/** A checker that also accepts a missing (undefined) field. */
export function optional(check: (value: unknown) => boolean): (value: unknown) => boolean {
  return (value) => value === undefined || check(value);
}

/** Whether `value` is an array of objects that each have `shape`. */
export function isArrayOf(value: unknown, shape: Shape): boolean {
  return Array.isArray(value) && value.every((item) => hasShape(item, shape));
}

/**
 * Parses JSON text that must hold an object.
 * Contract: never throws; returns the object, or a one-line reason it is not one.
 */
export function parseJsonObject(
  text: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: "not valid JSON" };
  }
  if (!isObject(value)) return { ok: false, reason: "not a JSON object" };
  return { ok: true, value };
}
