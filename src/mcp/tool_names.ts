/**
 * The names MCP tools get in the tool set: `mcp__SERVER__TOOL`, valid for every provider.
 *
 * @module
 */

/** The longest tool name every provider accepts (OpenAI and Gemini: 64). */
const MAX_NAME = 64;
/** Characters every provider accepts in a tool name. */
const INVALID = /[^A-Za-z0-9_-]/g;

/** A server's tool to be named. */
export interface ToolKey {
  server: string;
  tool: string;
}

/**
 * The names of `keys`, in their order: `mcp__SERVER__TOOL` with every character other
 * than letters, digits, `_` and `-` replaced by `_`.
 * Contract: pure; names are unique and at most 64 characters; a name that would be longer,
 * or equal to another, is cut and ends in `_` and 8 hex digits of a hash of the server and
 * tool, so it is the same in every session.
 */
export function mcpToolNames(keys: readonly ToolKey[]): string[] {
  const bases = keys.map(({ server, tool }) =>
    `mcp__${server.replace(INVALID, "_")}__${tool.replace(INVALID, "_")}`
  );
  const counts = new Map<string, number>();
  for (const base of bases) counts.set(base, (counts.get(base) ?? 0) + 1);
  return bases.map((base, index) => {
    if (base.length <= MAX_NAME && counts.get(base) === 1) return base;
    const { server, tool } = keys[index] ?? { server: "", tool: "" };
    return `${base.slice(0, MAX_NAME - 9)}_${fnv1a(`${server}\0${tool}`)}`;
  });
}

/** The 32-bit FNV-1a hash of the UTF-16 code units of `text`, as 8 hex digits. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}
