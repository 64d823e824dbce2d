/**
 * One numeric field of a config file, checked with the one-line problems config errors use.
 *
 * @module
 */

/** What {@linkcode numberField} accepts and how its problems name the field. */
export interface NumberFieldRule {
  /** The name in problems, e.g. `pricing.input`. */
  label: string;
  required: boolean;
  accept: (value: unknown) => value is number;
  /** What the value must be, after "must be", e.g. `a positive integer`. */
  expected: string;
}

/**
 * `fields[name]` when `rule` accepts it; else undefined, with one problem pushed when the
 * field is required and missing or present and wrong.
 */
export function numberField(
  fields: Record<string, unknown>,
  name: string,
  problems: string[],
  rule: NumberFieldRule,
): number | undefined {
  const value = fields[name];
  if (value === undefined) {
    if (rule.required) problems.push(`field "${rule.label}" is required`);
    return undefined;
  }
  if (rule.accept(value)) return value;
  problems.push(`field "${rule.label}" must be ${rule.expected}, got ${JSON.stringify(value)}`);
  return undefined;
}
