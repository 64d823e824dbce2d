/**
 * The frontmatter of a Markdown file (skills, commands): `key: value` lines between two
 * `---` lines at its start, the subset of YAML these files use.
 *
 * @module
 */

/** A file split into its frontmatter fields and its body. */
export interface Frontmatter {
  /** Each key's value: a string, or a list for `[a, b]` and `- item` lines. */
  fields: Record<string, string | string[]>;
  /** The text after the frontmatter (the whole text when there is none). */
  body: string;
}

const FENCE = /^---[ \t]*$/;
const FIELD = /^([A-Za-z][\w-]*)[ \t]*:[ \t]*(.*)$/;
const ITEM = /^[ \t]+-[ \t]+(.*)$|^-[ \t]+(.*)$/;

/**
 * Splits `text` into frontmatter and body.
 * Contract: never throws; lines that are no `key: value` or list item are ignored, an
 * unclosed frontmatter is no frontmatter, and the body keeps its text as written (one
 * leading newline dropped).
 */
export function parseFrontmatter(text: string): Frontmatter {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? "")) return { fields: {}, body: text };
  const end = lines.findIndex((line, index) => index > 0 && FENCE.test(line));
  if (end < 0) return { fields: {}, body: text };
  const fields: Record<string, string | string[]> = {};
  let listKey: string | undefined;
  for (const line of lines.slice(1, end)) {
    const item = ITEM.exec(line);
    const current = listKey === undefined ? undefined : fields[listKey];
    if (item && Array.isArray(current)) {
      current.push(unquote(item[1] ?? item[2] ?? ""));
      continue;
    }
    const field = FIELD.exec(line);
    if (!field) continue;
    const [, key = "", raw = ""] = field;
    const value = raw.trim();
    listKey = value === "" ? key : undefined;
    fields[key] = value === ""
      ? []
      : value.startsWith("[") && value.endsWith("]")
      ? splitList(value.slice(1, -1))
      : unquote(value);
  }
  for (const [key, value] of Object.entries(fields)) {
    if (Array.isArray(value) && value.length === 0) fields[key] = "";
  }
  return { fields, body: lines.slice(end + 1).join("\n") };
}

/** The field `key` as one string (a list joined by ", "); undefined when absent or empty. */
export function stringField(fields: Frontmatter["fields"], key: string): string | undefined {
  const value = fields[key];
  const text = Array.isArray(value) ? value.join(", ") : value;
  return text === undefined || text === "" ? undefined : text;
}

/** The field `key` as a list: a YAML list, or a string split at commas and spaces. */
export function listField(fields: Frontmatter["fields"], key: string): string[] | undefined {
  const value = fields[key];
  if (value === undefined || value === "") return undefined;
  return Array.isArray(value) ? value.filter((item) => item !== "") : splitList(value);
}

function splitList(text: string): string[] {
  return (text.match(/"[^"]*"|'[^']*'|[^,\s(]+\([^)]*\)|[^,\s]+/g) ?? []).map(unquote)
    .filter((item) => item !== "");
}

function unquote(text: string): string {
  const trimmed = text.trim();
  const quoted = /^"(.*)"$|^'(.*)'$/.exec(trimmed);
  return quoted ? quoted[1] ?? quoted[2] ?? "" : trimmed;
}
