/**
 * Validation primitives shared by the fake server's request checks, worded like the real
 * API's errors.
 *
 * @module
 */

/** Thrown by validation; the server turns it into an OpenAI-style error response. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** Whether `value` is a plain object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** How the real API names the type of `value` in errors. */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a decimal";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** The real API's error for a missing parameter. */
export function missing(param: string): RequestError {
  return new RequestError(
    `Missing required parameter: '${param}'.`,
    param,
    "missing_required_parameter",
  );
}

/** The real API's error for a parameter of the wrong type. */
export function invalidType(param: string, expected: string, value: unknown): RequestError {
  const message = `Invalid type for '${param}': expected ${expected}, but got ${
    describe(value)
  } instead.`;
  return new RequestError(message, param, "invalid_type");
}

/** `value` as a string, or the real API's error naming `param`. */
export function requireString(value: unknown, param: string): string {
  if (value === undefined) throw missing(param);
  if (typeof value !== "string") throw invalidType(param, "a string", value);
  return value;
}
