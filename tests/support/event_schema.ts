/**
 * The stream-json schema as docs/scripting.md writes it, read back for tests: one line per event,
 * in a JSON-like notation (`string`, `number`, `boolean`, `null`, string literals, `[T]` for
 * arrays, `A | B`, and `"field"?:` for a field that may be absent), so a test checks events
 * against the very text a user reads.
 *
 * @module
 */

/** A type in the README's notation. */
export type Schema =
  | { kind: "string" | "number" | "boolean" | "null" }
  | { kind: "literal"; value: string }
  | { kind: "array"; item: Schema }
  | { kind: "object"; fields: Map<string, { schema: Schema; optional: boolean }> }
  | { kind: "union"; options: Schema[] };

const TOKEN = /\s*("(?:[^"\\]|\\.)*"|[A-Za-z_]+|[{}[\]:,|?])/y;

/**
 * The event schemas of the "Scripting" section of docs/scripting.md, by the literal of their `type`.
 * Contract: throws a SyntaxError naming the line that does not parse.
 */
export function readEventSchemas(readme: string): Map<string, Schema> {
  const section = readme.split(/^## Scripting$/m)[1]?.split(/^## /m)[0] ?? "";
  const block = /```\n(\{"type"[\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) {
    throw new SyntaxError("docs/scripting.md has no event schema under ## Scripting");
  }
  const schemas = new Map<string, Schema>();
  for (const line of block.trim().split("\n")) {
    const schema = parseSchema(line);
    const type = schema.kind === "object" ? schema.fields.get("type")?.schema : undefined;
    if (type?.kind !== "literal") throw new SyntaxError(`No "type" literal in: ${line}`);
    schemas.set(type.value, schema);
  }
  return schemas;
}

/** Parses one type written in the README's notation. */
export function parseSchema(text: string): Schema {
  const tokens: string[] = [];
  let end = 0;
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match; match = TOKEN.exec(text)) {
    tokens.push(match[1] ?? "");
    end = TOKEN.lastIndex;
  }
  if (text.slice(end).trim() !== "") {
    throw new SyntaxError(`Cannot read schema at "${text.slice(end)}": ${text}`);
  }
  let position = 0;
  const next = () => tokens[position++] ?? "";
  const expect = (token: string) => {
    const got = next();
    if (got !== token) throw new SyntaxError(`Expected "${token}", got "${got}" in: ${text}`);
  };
  const single = (): Schema => {
    const token = next();
    if (token.startsWith('"')) return { kind: "literal", value: JSON.parse(token) };
    if (token === "[") {
      const item = union();
      expect("]");
      return { kind: "array", item };
    }
    if (token === "{") {
      const fields = new Map<string, { schema: Schema; optional: boolean }>();
      while (tokens[position] !== "}") {
        const name = JSON.parse(next());
        const optional = tokens[position] === "?";
        if (optional) position++;
        expect(":");
        fields.set(name, { schema: union(), optional });
        if (tokens[position] === ",") position++;
      }
      expect("}");
      return { kind: "object", fields };
    }
    if (token === "string" || token === "number" || token === "boolean" || token === "null") {
      return { kind: token };
    }
    throw new SyntaxError(`Unexpected "${token}" in: ${text}`);
  };
  const union = (): Schema => {
    const options = [single()];
    while (tokens[position] === "|") {
      position++;
      options.push(single());
    }
    return options.length === 1 ? options[0] as Schema : { kind: "union", options };
  };
  const schema = union();
  if (position !== tokens.length) throw new SyntaxError(`Trailing tokens in: ${text}`);
  return schema;
}

/**
 * Where `value` breaks `schema`, one line each (empty when it conforms): wrong types, missing
 * fields, and fields the schema does not name.
 */
export function schemaProblems(value: unknown, schema: Schema, path = "$"): string[] {
  switch (schema.kind) {
    case "string":
    case "number":
    case "boolean": {
      const type: string = typeof value;
      return type === schema.kind ? [] : [`${path}: expected ${schema.kind}`];
    }
    case "null":
      return value === null ? [] : [`${path}: expected null`];
    case "literal":
      return value === schema.value ? [] : [`${path}: expected "${schema.value}"`];
    case "array":
      return Array.isArray(value)
        ? value.flatMap((item, index) => schemaProblems(item, schema.item, `${path}[${index}]`))
        : [`${path}: expected an array`];
    case "union":
      return schema.options.some((option) => schemaProblems(value, option, path).length === 0)
        ? []
        : [`${path}: matches none of ${schema.options.length} types`];
    case "object": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        return [`${path}: expected an object`];
      }
      const record = value as Record<string, unknown>;
      const problems = Object.keys(record).filter((key) => !schema.fields.has(key))
        .map((key) => `${path}.${key}: not in the schema`);
      for (const [name, field] of schema.fields) {
        if (!(name in record)) {
          if (!field.optional) problems.push(`${path}.${name}: missing`);
          continue;
        }
        problems.push(...schemaProblems(record[name], field.schema, `${path}.${name}`));
      }
      return problems;
    }
    default: {
      const unknown: never = schema;
      throw new TypeError(`Unknown schema ${JSON.stringify(unknown)}`);
    }
  }
}
