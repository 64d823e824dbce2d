/**
 * Ignore rules in gitignore syntax (`.powercodeignore`): which paths below a directory are
 * ignored, with git's rules for comments, negation, anchoring, directory-only patterns,
 * `*`, `?`, `[...]` and `**`.
 *
 * @module
 */

/** One pattern line, compiled. */
interface Rule {
  pattern: RegExp;
  negated: boolean;
  directoryOnly: boolean;
}

/**
 * A parsed ignore file.
 * Contract: pure; paths are relative to the directory that holds the file, separated by
 * `/`, without a leading `/`.
 */
export class IgnoreRules {
  readonly #rules: readonly Rule[];

  private constructor(rules: Rule[]) {
    this.#rules = rules;
  }

  /** Rules that ignore nothing. */
  static readonly NONE: IgnoreRules = new IgnoreRules([]);

  /** Parses the text of an ignore file; lines that are no pattern are skipped. */
  static parse(text: string): IgnoreRules {
    return new IgnoreRules(text.split(/\r?\n/).flatMap((line) => compile(line) ?? []));
  }

  /** How many patterns the file holds. */
  get size(): number {
    return this.#rules.length;
  }

  /**
   * Whether `path` itself is ignored, by the last rule that matches it (a negated rule
   * re-includes); its parent directories are not looked at.
   */
  ignores(path: string, isDirectory: boolean): boolean {
    return this.decide(path, isDirectory) ?? false;
  }

  /**
   * What the last rule that matches `path` itself says: ignored (true), re-included by a
   * negated rule (false), or undefined when no rule matches (a parent directory's ignore
   * file then decides, as in git).
   */
  decide(path: string, isDirectory: boolean): boolean | undefined {
    let verdict: boolean | undefined;
    for (const rule of this.#rules) {
      if (rule.directoryOnly && !isDirectory) continue;
      if (rule.pattern.test(path)) verdict = !rule.negated;
    }
    return verdict;
  }

  /**
   * The first of `path`'s parent directories or `path` itself that is ignored, or
   * undefined: as in git, nothing inside an ignored directory can be re-included.
   */
  match(path: string, isDirectory: boolean): string | undefined {
    const parts = path.split("/").filter((part) => part !== "" && part !== ".");
    for (let end = 1; end <= parts.length; end++) {
      const prefix = parts.slice(0, end).join("/");
      if (this.ignores(prefix, end < parts.length || isDirectory)) return prefix;
    }
    return undefined;
  }
}

/** Compiles one line of an ignore file; undefined for blank lines and comments. */
function compile(line: string): Rule | undefined {
  let text = line.replace(/(?<!\\)\s+$/, "");
  if (text.endsWith("\\ ")) text = text.slice(0, -2) + " ";
  if (text === "" || text.startsWith("#")) return undefined;
  const negated = text.startsWith("!");
  if (negated || text.startsWith("\\!") || text.startsWith("\\#")) text = text.slice(1);
  const directoryOnly = text.endsWith("/");
  if (directoryOnly) text = text.slice(0, -1);
  if (text === "") return undefined;
  // A slash before the end anchors the pattern to the directory of the file.
  const anchored = text.includes("/");
  if (text.startsWith("/")) text = text.slice(1);
  const body = translate(text);
  return {
    pattern: new RegExp(`^${anchored ? "" : "(?:.*/)?"}${body}$`, "s"),
    negated,
    directoryOnly,
  };
}

/** The regular expression source of a glob, `**` included. */
function translate(glob: string): string {
  let source = "";
  for (let at = 0; at < glob.length;) {
    const rest = glob.slice(at);
    const atStart = at === 0;
    if (rest.startsWith("**/") && (atStart || glob[at - 1] === "/")) {
      source += "(?:.*/)?";
      at += 3;
    } else if (rest === "**" && (atStart || glob[at - 1] === "/")) {
      source += ".*";
      at += 2;
    } else if (rest.startsWith("*")) {
      source += "[^/]*";
      at += rest.startsWith("**") ? 2 : 1;
    } else if (rest.startsWith("?")) {
      source += "[^/]";
      at++;
    } else if (rest.startsWith("[")) {
      const end = classEnd(glob, at);
      if (end === undefined) {
        source += "\\[";
        at++;
      } else {
        source += characterClass(glob.slice(at + 1, end));
        at = end + 1;
      }
    } else if (rest.startsWith("\\") && rest.length > 1) {
      source += escape(rest[1] ?? "");
      at += 2;
    } else {
      source += escape(rest[0] ?? "");
      at++;
    }
  }
  return source;
}

/** The index of the `]` closing the class opened at `open`, if any. */
function classEnd(glob: string, open: number): number | undefined {
  let at = open + 1;
  if (glob[at] === "!" || glob[at] === "^") at++;
  if (glob[at] === "]") at++;
  for (; at < glob.length; at++) {
    if (glob[at] === "\\") at++;
    else if (glob[at] === "]") return at;
  }
  return undefined;
}

/** A glob class body (`a-z`, `!abc`) as a regular expression class that never matches `/`. */
function characterClass(body: string): string {
  const negated = body.startsWith("!") || body.startsWith("^");
  const inner = (negated ? body.slice(1) : body).replace(/\\(.)/g, "$1")
    .replace(/[\\\]^]/g, "\\$&");
  return negated ? `[^/${inner}]` : `(?!/)[${inner}]`;
}

function escape(char: string): string {
  return char.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
