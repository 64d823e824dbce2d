/**
 * The workspace: its roots, the confinement of every path the tools touch, file kinds and the ignore rules.
 *
 * @module
 */
export { GIT_LINK, GIT_MARKERS, type GitControl, isGitDirectory } from "./git_control.ts";
export { IGNORE_FILE, type IgnoreMounts, ignoreMounts } from "./ignore_file.ts";
export { indexPaths, trackedIgnored } from "./tracked_ignored.ts";
export { RegularFile } from "./regular_file.ts";
export {
  decodeText,
  readTextFile,
  readTextHead,
  type TextHead,
  writeFileAtomic,
} from "./text_file.ts";
export { MAX_EDIT_BYTES, type Root, Workspace } from "./workspace.ts";
export type { TreeEntry, WalkOptions } from "./tree_walk.ts";
export type { PathMatcher } from "./path_glob.ts";

/** The tree walker and the glob matcher (glob, grep, ls), loaded at a search tool's first call. */
export async function loadTreeSearch(): Promise<{
  walkTree: typeof import("./tree_walk.ts").walkTree;
  globMatcher: typeof import("./path_glob.ts").globMatcher;
}> {
  const [walk, glob] = await Promise.all([import("./tree_walk.ts"), import("./path_glob.ts")]);
  return { walkTree: walk.walkTree, globMatcher: glob.globMatcher };
}
