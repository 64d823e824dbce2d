/**
 * Glob patterns for the search tools, compiled by the ignore rules' matcher: `*`, `?`,
 * `[...]`, `**` and `{a,b}` alternatives.
 *
 * @module
 */
import { IgnoreRules } from "./ignore_rules.ts";

/** Most alternatives one pattern's braces may expand to. */
const MAX_ALTERNATIVES = 64;

/** Whether a path (relative, separated by `/`) matches a glob. */
export type PathMatcher = (path: string) => boolean;

/**
 * A matcher of `pattern`. `anchored`: the pattern matches the whole path (`*.ts` only at the
 * top, `**\/*.ts` at any depth), as a file glob; otherwise a pattern without `/` matches a
 * name at any depth, as in `.gitignore` (grep's `include`).
 * Contract: pure; throws a `SyntaxError` for an empty pattern or braces that expand to more
 * than 64 alternatives.
 */
export function globMatcher(pattern: string, options: { anchored: boolean }): PathMatcher {
  if (pattern.trim() === "") throw new SyntaxError("the pattern is empty");
  const lines = expandBraces(pattern.replace(/^\.\//, "")).map((each) => {
    // A leading `!` or `#` is a name here, not a negation or a comment.
    const literal = /^[!#]/.test(each) ? `\\${each}` : each;
    return options.anchored && !literal.startsWith("/") ? `/${literal}` : literal;
  });
  const rules = IgnoreRules.parse(lines.join("\n"));
  return (path) => rules.ignores(path, false);
}

/** `a{b,c}d` as `abd`, `acd`; nested braces too; a brace without a comma stays as it is. */
function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf("{");
  if (open === -1) return [pattern];
  let depth = 0;
  const commas: number[] = [];
  for (let at = open; at < pattern.length; at++) {
    const char = pattern[at];
    if (char === "{") depth++;
    else if (char === "}" && --depth === 0) {
      if (commas.length === 0) {
        return expandBraces(pattern.slice(at + 1)).map((rest) => pattern.slice(0, at + 1) + rest);
      }
      const bounds = [open, ...commas, at];
      const head = pattern.slice(0, open);
      const tails = expandBraces(pattern.slice(at + 1));
      const out: string[] = [];
      for (let index = 0; index + 1 < bounds.length; index++) {
        const part = pattern.slice((bounds[index] ?? 0) + 1, bounds[index + 1]);
        for (const inner of expandBraces(part)) {
          for (const tail of tails) out.push(head + inner + tail);
        }
      }
      if (out.length > MAX_ALTERNATIVES) {
        throw new SyntaxError(`the braces expand to more than ${MAX_ALTERNATIVES} patterns`);
      }
      return out;
    } else if (char === "," && depth === 1) commas.push(at);
  }
  return [pattern];
}
