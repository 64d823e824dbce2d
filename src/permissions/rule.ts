/**
 * Permission rules over `tool(pattern)`: `bash(git push *)`, `edit(src/**)`, `read(.env*)`,
 * `net(*.example.com)`, `mcp__github__*`. A rule is parsed once; matching is pure.
 *
 * @module
 */

/** Which list a rule is on: deny wins over ask over allow. */
export type RuleList = "allow" | "ask" | "deny";

/** One parsed rule and where it came from. */
export interface Rule {
  /** The rule as written, e.g. `bash(npm run test*)`. */
  text: string;
  list: RuleList;
  /** The file that holds it (or `this run` for an answer not saved). */
  source: string;
  /** The tool part: bash, edit, read, net, or a tool name (may hold `*`). */
  tool: string;
  /** The part in parentheses; undefined when the rule names a whole tool. */
  pattern: string | undefined;
}

const RULE = /^([A-Za-z0-9_*.-]+)(?:\((.*)\))?$/s;

/**
 * Parses `text` as a rule on `list`.
 * Contract: throws a SyntaxError naming the text when it is not `name` or `name(pattern)`.
 */
export function parseRule(text: string, list: RuleList, source: string): Rule {
  const match = RULE.exec(text.trim());
  if (!match) {
    throw new SyntaxError(
      `Invalid permission rule "${text}" in "${source}": write tool(pattern), e.g. bash(git push *)`,
    );
  }
  return { text: text.trim(), list, source, tool: match[1] ?? "", pattern: match[2] };
}

/**
 * Whether a simple command's words (joined by single spaces) match a command pattern: `*`
 * matches any text, everything else itself; a pattern ending in ` *` also matches the
 * command without further words (`git push *` matches `git push`, not `git pushy`).
 */
export function matchesCommand(pattern: string, words: readonly string[]): boolean {
  const text = words.join(" ");
  if (globRegExp(pattern, false).test(text)) return true;
  return pattern.endsWith(" *") && globRegExp(pattern.slice(0, -2), false).test(text);
}

/**
 * Whether `path` (relative to the first root, as the model named it) matches a path
 * pattern: `**` matches across directories, `*` within one; a pattern without `/` matches
 * the file's name in any directory (as in .gitignore).
 */
export function matchesPath(pattern: string, path: string): boolean {
  const clean = path.replace(/^(\.\/)+/, "").replace(/\/+$/, "");
  const glob = pattern.replace(/^(\.\/)+/, "").replace(/^\//, "");
  if (!glob.includes("/")) {
    const name = clean.slice(clean.lastIndexOf("/") + 1);
    return globRegExp(glob, true).test(name);
  }
  return globRegExp(glob, true).test(clean);
}

/** Whether a host matches a host pattern: `*.example.com` matches every subdomain. */
export function matchesHost(pattern: string, host: string): boolean {
  return globRegExp(pattern.toLowerCase(), true).test(host.toLowerCase());
}

/** Whether a tool name matches the tool part of a rule (`mcp__github__*`). */
export function matchesToolName(pattern: string, name: string): boolean {
  return globRegExp(pattern, false).test(name);
}

/** A whole-text RegExp for the glob pattern; with `paths`, `*` stops at `/` and `**` does not. */
function globRegExp(glob: string, paths: boolean): RegExp {
  let source = "";
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index] ?? "";
    if (char !== "*") {
      source += char.replace(/[.+?^${}()|[\]\\/]/g, "\\$&");
      continue;
    }
    if (paths && glob[index + 1] === "*") {
      index++;
      if (glob[index + 1] === "/") {
        index++;
        source += "(?:.*/)?";
      } else source += ".*";
    } else source += paths ? "[^/]*" : ".*";
  }
  return new RegExp(`^${source}$`, "s");
}
