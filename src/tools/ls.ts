/**
 * The `ls` tool: a directory's entries, and those of its subdirectories to a depth, in
 * path order, bounded.
 *
 * @module
 */
import { loadTreeSearch } from "../workspace/mod.ts";
import { type ArgsOf, defineParams, type Params } from "./params.ts";
import type { Tool } from "./tool.ts";
import type { Workspace } from "../workspace/mod.ts";
import { GITIGNORED_PARAMETER, MAX_RESULTS, moreLine, searchStart } from "./tree_search.ts";

/** Deepest level listed. */
const MAX_DEPTH = 5;
/** Entries counted beyond the listed ones before the count gives up ("more than N"). */
const MAX_COUNTED = 100_000;

const LS_PARAMS = {
  path: {
    type: "string",
    description: "Directory to list, relative to the workspace root (default: the root)",
    optional: true,
  },
  depth: {
    type: "integer",
    description:
      `Levels to list: 1 is the directory's own entries (default 1, at most ${MAX_DEPTH})`,
    optional: true,
  },
  include_gitignored: GITIGNORED_PARAMETER,
} as const satisfies Params;

/**
 * Creates the `ls` tool for `workspace`.
 * Contract: lists at most 100 entries as paths relative to the workspace root (directories
 * end in `/`, symbolic links show ` -> target`), each directory before its content, then
 * `… N more, narrow the search`; leaves out `.git`, what `.powercodeignore` ignores and, by
 * default, what `.gitignore` ignores.
 */
export function createLsTool(workspace: Workspace): Tool<ArgsOf<typeof LS_PARAMS>> {
  return {
    name: "ls",
    effect: "read",
    description: "List a workspace directory: its entries (and those of subdirectories down " +
      `to depth), sorted, at most ${MAX_RESULTS}, as paths relative to the workspace root; ` +
      "directories end in /. Skips .git and what .gitignore or .powercodeignore ignore.",
    parameters: defineParams(LS_PARAMS),
    describe: ({ path, depth }) =>
      `${path ?? "."}${depth === undefined ? "" : ` (depth ${depth})`}`,
    paths: ({ path }) => ({ read: [path ?? "."] }),
    async execute({ path, depth = 1, include_gitignored: gitignored = false }, { signal }) {
      if (depth < 1 || depth > MAX_DEPTH) {
        throw new RangeError(
          `Cannot ls: depth must be an integer from 1 to ${MAX_DEPTH}, got ${depth}`,
        );
      }
      const { walkTree } = await loadTreeSearch();
      const start = await searchStart(workspace, path, { tool: "ls", files: false });
      const listed: string[] = [];
      let count = 0;
      for (const entry of walkTree(workspace, start.absolute, { gitignored, maxDepth: depth })) {
        if (++count > MAX_COUNTED) break;
        if (count % 4096 === 0) signal.throwIfAborted();
        if (count > MAX_RESULTS) continue;
        listed.push(
          entry.kind === "directory"
            ? `${entry.shown}/`
            : entry.kind === "symlink"
            ? `${entry.shown} -> ${linkTarget(entry.absolute)}`
            : entry.shown,
        );
      }
      if (count === 0) return { content: "(empty directory)", summary: "empty" };
      if (count > MAX_RESULTS) {
        listed.push(
          moreLine(count > MAX_COUNTED ? `over ${MAX_COUNTED - MAX_RESULTS}` : count - MAX_RESULTS),
        );
      }
      const total = count > MAX_COUNTED ? `over ${MAX_COUNTED}` : `${count}`;
      return {
        content: listed.join("\n"),
        summary: `${total} ${count === 1 ? "entry" : "entries"}`,
      };
    },
  };
}

function linkTarget(absolute: string): string {
  try {
    return Deno.readLinkSync(absolute);
  } catch {
    return "?";
  }
}
