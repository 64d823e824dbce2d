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

/** How deep and how large a kept value may be. */
export interface JsonBounds {
  /** Levels of nested objects and arrays (a flat object is 1). */
  maxDepth: number;
  /** Approximate characters of its JSON text. */
  maxChars: number;
}

/**
 * Whether a parsed JSON value nests at most `maxDepth` levels and its JSON text takes about
 * `maxChars` characters at most, so it can be kept, sent back and serialized safely.
 * Contract: iterative, so any depth is measured without overflowing the stack; stops as soon as
 * a bound is passed.
 */
export function isBoundedJson(value: unknown, bounds: JsonBounds): boolean {
  const pending: { item: unknown; depth: number }[] = [{ item: value, depth: 0 }];
  let chars = 0;
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { item, depth } = next;
    if (typeof item === "string") chars += item.length + 2;
    else if (typeof item !== "object" || item === null) chars += 8;
    else if (depth >= bounds.maxDepth) return false;
    else {
      const values = Array.isArray(item) ? item : Object.values(item);
      if (!Array.isArray(item)) { for (const key of Object.keys(item)) chars += key.length + 4; }
      chars += values.length + 2;
      if (chars > bounds.maxChars) return false;
      for (const child of values) pending.push({ item: child, depth: depth + 1 });
    }
    if (chars > bounds.maxChars) return false;
  }
  return true;
}
