/**
 * What Tab offers for a path at the prompt: a workspace directory's entries, without what
 * `.powercodeignore` ignores (those files could not be attached or read anyway).
 *
 * @module
 */
import type { DirEntry } from "../editor/mod.ts";
import type { Workspace } from "../tools/mod.ts";

/**
 * Lists a directory given relative to the workspace's first root (`""` for the root itself),
 * leaving out each entry the root's `.powercodeignore` ignores, by itself or by a parent.
 * Contract: rejects as `Deno.readDir` does (the completer then offers nothing).
 */
export function listWorkspaceDir(workspace: Workspace): (dir: string) => Promise<DirEntry[]> {
  return async (dir) => {
    const entries: DirEntry[] = [];
    const base = dir === "" ? "" : `${dir.replace(/\/+$/, "")}/`;
    for await (const entry of Deno.readDir(`${workspace.path}/${dir}`)) {
      const ignored = workspace.ignore.match(`${base}${entry.name}`, entry.isDirectory);
      if (ignored === undefined) entries.push({ name: entry.name, isDirectory: entry.isDirectory });
    }
    return entries;
  };
}
