/**
 * What the search tools (`grep`, `glob`, `ls`) share: the bound on results and its note,
 * where a search starts, and the switch that lets it into what `.gitignore` ignores.
 *
 * @module
 */
import type { Workspace } from "../workspace/mod.ts";
import type { ParamSpec } from "./params.ts";

/** Most results a search tool lists. */
export const MAX_RESULTS = 100;
/** Most entries a search walks before it stops and says so. */
export const MAX_WALKED = 200_000;

/** The parameter that lets a search into what `.gitignore` ignores. */
export const GITIGNORED_PARAMETER = {
  type: "boolean",
  description: "Also look at what .gitignore ignores (default false)",
  optional: true,
} as const satisfies ParamSpec;

/** The directory a search starts in and what is there. */
export interface SearchStart {
  /** As {@linkcode Workspace.resolve} returned it. */
  absolute: string;
  isDirectory: boolean;
}

/**
 * Resolves `path` (default: the workspace root) for a search by `tool`.
 * Contract: throws an Error starting with `Cannot <tool> "<path>":` when it escapes, is
 * ignored, is missing, or (unless `files` is set) is not a directory.
 */
export async function searchStart(
  workspace: Workspace,
  path: string | undefined,
  options: { tool: string; files: boolean },
): Promise<SearchStart> {
  const named = path === undefined || path === "" ? "." : path;
  const absolute = await workspace.resolve(named);
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(absolute);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Deno.errors.NotFound(`Cannot ${options.tool} "${named}": no such directory`);
    }
    throw error;
  }
  if (!info.isDirectory && !(options.files && info.isFile)) {
    throw new TypeError(`Cannot ${options.tool} "${named}": not a directory`);
  }
  return { absolute, isDirectory: info.isDirectory };
}

/** The line after a cut list: how many results were left out. */
export function moreLine(left: number | string): string {
  return `… ${left} more, narrow the search`;
}

/** The note of a walk stopped at {@linkcode MAX_WALKED} entries. */
export const WALK_STOPPED = `(the search stopped after ${MAX_WALKED} entries: give a ` +
  "narrower path)";
