/**
 * The `glob` tool: the workspace's paths that match a glob, in path order, bounded.
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

const GLOB_PARAMS = {
  pattern: {
    type: "string",
    description: "Glob matched against paths relative to `path`: `*` and `?` within a name, " +
      "`**` across directories, `[abc]`, `{ts,tsx}`; e.g. `**/*.test.ts`, `src/*.json`",
  },
  path: {
    type: "string",
    description: "Directory to search, relative to the workspace root (default: the root)",
    optional: true,
  },
  include_gitignored: GITIGNORED_PARAMETER,
} as const satisfies Params;

/**
 * Creates the `glob` tool for `workspace`.
 * Contract: lists at most 100 matching paths relative to the workspace root (directories
 * end in `/`), in path order, then `… N more, narrow the search`; leaves out `.git`, what
 * `.powercodeignore` ignores and, by default, what `.gitignore` ignores.
 */
export function createGlobTool(workspace: Workspace): Tool<ArgsOf<typeof GLOB_PARAMS>> {
  return {
    name: "glob",
    effect: "read",
    description: "Find files by name: the workspace paths matching a glob pattern, sorted, at " +
      `most ${MAX_RESULTS}, relative to the workspace root; skips .git and what .gitignore or ` +
      ".powercodeignore ignore. Prefer it to find or ls -R in bash.",
    parameters: defineParams(GLOB_PARAMS),
    describe: ({ pattern, path }) => `${pattern}${path === undefined ? "" : ` in ${path}`}`,
    paths: ({ path }) => ({ read: [path ?? "."] }),
    async execute({ pattern, path, include_gitignored: gitignored = false }, { signal }) {
      const { globMatcher, walkTree } = await loadTreeSearch();
      let matcher: PathMatcher;
      try {
        matcher = globMatcher(pattern, { anchored: true });
      } catch (error) {
        throw new SyntaxError(
          `Cannot glob ${JSON.stringify(pattern)}: ${
            error instanceof Error ? error.message : error
          }`,
        );
      }
      const start = await searchStart(workspace, path, { tool: "glob", files: false });
      const listed: string[] = [];
      let matches = 0;
      let walked = 0;
      let stopped = false;
      for (const entry of walkTree(workspace, start.absolute, { gitignored })) {
        if (++walked > MAX_WALKED) {
          stopped = true;
          break;
        }
        if (walked % 4096 === 0) signal.throwIfAborted();
        if (!matcher(entry.below)) continue;
        if (++matches <= MAX_RESULTS) {
          listed.push(entry.kind === "directory" ? `${entry.shown}/` : entry.shown);
        }
      }
      const where = path === undefined ? "" : ` in ${path}`;
      if (matches === 0) {
        const none = `No paths match ${JSON.stringify(pattern)}${where}`;
        return { content: stopped ? `${none}\n${WALK_STOPPED}` : none, summary: "no matches" };
      }
      if (matches > MAX_RESULTS) listed.push(moreLine(matches - MAX_RESULTS));
      if (stopped) listed.push(WALK_STOPPED);
      return {
        content: listed.join("\n"),
        summary: `${matches} ${matches === 1 ? "path" : "paths"}`,
      };
    },
  };
}
