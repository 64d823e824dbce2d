/**
 * The `grep` tool: lines matching a regular expression in the workspace's text files, in
 * path order, bounded.
 *
 * @module
 */
import { loadTreeSearch, type PathMatcher } from "../workspace/mod.ts";
import { type ArgsOf, defineParams, type Params } from "./params.ts";
import type { Tool } from "./tool.ts";
import type { Workspace } from "../workspace/mod.ts";
import {
  GITIGNORED_PARAMETER,
  MAX_RESULTS,
  MAX_WALKED,
  moreLine,
  searchStart,
  WALK_STOPPED,
} from "./tree_search.ts";
import { loadSearchableReader } from "./searchable_file.ts";

/** Most context lines before and after a match. */
const MAX_CONTEXT = 10;
/** Longest line shown; longer ones end in `…`. */
const MAX_LINE_CHARS = 300;
/** Files read between two looks at the abort signal. */
const FILES_PER_YIELD = 256;

const GREP_PARAMS = {
  pattern: {
    type: "string",
    description: "JavaScript regular expression searched in each line, e.g. `function\\s+load`",
  },
  path: {
    type: "string",
    description: "Directory or file to search, relative to the workspace root (default: the " +
      "whole workspace)",
    optional: true,
  },
  include: {
    type: "string",
    description: "Only files whose path matches this glob, e.g. `*.ts`, `src/**/*.{ts,tsx}` " +
      "(a glob without / matches the file name at any depth)",
    optional: true,
  },
  ignore_case: { type: "boolean", description: "Match case-insensitively", optional: true },
  context: {
    type: "integer",
    description: `Lines shown before and after each match (default 0, at most ${MAX_CONTEXT})`,
    optional: true,
  },
  include_gitignored: GITIGNORED_PARAMETER,
} as const satisfies Params;

type GrepArgs = ArgsOf<typeof GREP_PARAMS>;

/** What a search found and skipped. */
interface Found {
  lines: string[];
  matches: number;
  files: number;
  binary: number;
  large: number;
  stopped: boolean;
}

/**
 * Creates the `grep` tool for `workspace`.
 * Contract: lists at most 100 matching lines (`path:line:text`, paths relative to the
 * workspace root, files in path order), then `… N more, narrow the search` and the totals;
 * skips `.git`, what `.powercodeignore` ignores, by default what `.gitignore` ignores,
 * binary files (a NUL byte in the first 8 KB, or not UTF-8), files over 10 MB, symbolic
 * links and special files. An invalid regular expression is an error result naming it.
 */
export function createGrepTool(workspace: Workspace): Tool<GrepArgs> {
  return {
    name: "grep",
    effect: "read",
    description: "Search the contents of the workspace's text files for a regular expression " +
      `(JavaScript syntax). Returns at most ${MAX_RESULTS} matching lines as path:line:text, ` +
      "sorted by path, with the total count; skips .git, binary files and what .gitignore or " +
      ".powercodeignore ignore. Prefer it to grep or find in bash.",
    parameters: defineParams(GREP_PARAMS),
    describe: ({ pattern, path }) => `${pattern}${path === undefined ? "" : ` in ${path}`}`,
    paths: ({ path }) => ({ read: [path ?? "."] }),
    async execute(args, { signal }) {
      const context = args.context ?? 0;
      if (context < 0 || context > MAX_CONTEXT) {
        throw new RangeError(
          `Cannot grep: context must be an integer from 0 to ${MAX_CONTEXT}, got ${context}`,
        );
      }
      const flags = args.ignore_case ? "i" : "";
      let line: RegExp;
      let anywhere: RegExp;
      try {
        line = new RegExp(args.pattern, flags);
        anywhere = new RegExp(args.pattern, `${flags}m`);
      } catch (error) {
        throw new SyntaxError(
          `Cannot grep: invalid regular expression ${JSON.stringify(args.pattern)}: ${
            error instanceof Error
              ? error.message.replace(/^Invalid regular expression: /, "")
              : error
          }; escape special characters such as ( [ { . * + ? with \\`,
        );
      }
      const { globMatcher } = await loadTreeSearch();
      let include: PathMatcher | undefined;
      try {
        include = args.include === undefined
          ? undefined
          : globMatcher(args.include, { anchored: false });
      } catch (error) {
        throw new SyntaxError(
          `Cannot grep: invalid include glob ${JSON.stringify(args.include)}: ${
            error instanceof Error ? error.message : error
          }`,
        );
      }
      const start = await searchStart(workspace, args.path, { tool: "grep", files: true });
      const found = await search(workspace, start, {
        line,
        anywhere,
        include,
        context,
        signal,
        gitignored: args.include_gitignored ?? false,
      });
      return report(args, found);
    },
  };
}

interface SearchOptions {
  line: RegExp;
  anywhere: RegExp;
  include: PathMatcher | undefined;
  context: number;
  signal: AbortSignal;
  gitignored: boolean;
}

async function search(
  workspace: Workspace,
  start: { absolute: string; isDirectory: boolean },
  options: SearchOptions,
): Promise<Found> {
  const found: Found = { lines: [], matches: 0, files: 0, binary: 0, large: 0, stopped: false };
  const { walkTree } = await loadTreeSearch();
  const entries = start.isDirectory
    ? walkTree(workspace, start.absolute, { gitignored: options.gitignored })
    : [{
      absolute: start.absolute,
      shown: workspace.relative(start.absolute),
      below: "",
      kind: "file",
    }];
  const readSearchable = await loadSearchableReader();
  let walked = 0;
  let read = 0;
  for (const entry of entries) {
    if (++walked > MAX_WALKED) {
      found.stopped = true;
      break;
    }
    if (entry.kind !== "file") continue;
    if (options.include && entry.below !== "" && !options.include(entry.below)) continue;
    if (++read % FILES_PER_YIELD === 0) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      options.signal.throwIfAborted();
    }
    const file = readSearchable(entry.absolute);
    if (file.kind === "binary") found.binary++;
    if (file.kind === "large") found.large++;
    if (file.kind !== "text" || !options.anywhere.test(file.text)) continue;
    const budget = MAX_RESULTS - Math.min(found.matches, MAX_RESULTS);
    const matches = matchFile(entry.shown, file.text, options, budget, found.lines);
    if (matches > 0) found.files++;
    found.matches += matches;
  }
  return found;
}

/**
 * Appends the lines to show of one file (at most `budget` matches, with their context) to
 * `out`; the file's number of matching lines.
 */
function matchFile(
  shown: string,
  text: string,
  options: SearchOptions,
  budget: number,
  out: string[],
): number {
  const rows = text.split("\n");
  if (rows.at(-1) === "") rows.pop();
  const hits: number[] = [];
  for (let index = 0; index < rows.length; index++) {
    if (options.line.test(rows[index] ?? "")) hits.push(index);
  }
  const { context } = options;
  const isHit = new Set(hits);
  let shownUpTo = -1;
  for (const hit of hits.slice(0, budget)) {
    const from = Math.max(hit - context, shownUpTo + 1);
    const apart = shownUpTo === -1 || from > shownUpTo + 1;
    if (context > 0 && out.length > 0 && apart) out.push("--");
    const to = Math.min(hit + context, rows.length - 1);
    for (let index = from; index <= to; index++) {
      const mark = isHit.has(index) ? ":" : "-";
      out.push(`${shown}${mark}${index + 1}${mark}${clip(rows[index] ?? "")}`);
    }
    shownUpTo = Math.max(shownUpTo, to);
  }
  return hits.length;
}

function clip(row: string): string {
  const line = row.endsWith("\r") ? row.slice(0, -1) : row;
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
}

function report(args: GrepArgs, found: Found) {
  const where = args.path === undefined ? "" : ` in ${args.path}`;
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "es"}`;
  const totals = `${plural(found.matches, "match")} in ${found.files} ` +
    `${found.files === 1 ? "file" : "files"}`;
  const notes: string[] = [];
  const files = (count: number) => `${count} ${count === 1 ? "file" : "files"}`;
  if (found.binary > 0) notes.push(`binary: ${files(found.binary)} skipped`);
  if (found.large > 0) notes.push(`over 10 MB: ${files(found.large)} skipped`);
  const tail = [
    ...(notes.length > 0 ? [`(${notes.join("; ")})`] : []),
    ...(found.stopped ? [WALK_STOPPED] : []),
  ];
  if (found.matches === 0) {
    const content = [`No matches for ${JSON.stringify(args.pattern)}${where}`, ...tail];
    return { content: content.join("\n"), summary: "no matches" };
  }
  const lines = [...found.lines];
  if (found.matches > MAX_RESULTS) {
    lines.push(`${moreLine(found.matches - MAX_RESULTS)} (${totals})`);
  } else {
    lines.push(`(${totals})`);
  }
  lines.push(...tail);
  return { content: lines.join("\n"), summary: totals };
}
