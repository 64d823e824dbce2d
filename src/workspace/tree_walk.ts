/**
 * Walking a directory of the workspace for the search tools: entries in a stable order,
 * without `.git`, what `.powercodeignore` ignores and, unless asked, what `.gitignore` files
 * (and `.git/info/exclude`) ignore.
 *
 * @module
 */
import { IgnoreRules } from "./ignore_rules.ts";
import type { Workspace } from "./workspace.ts";

/** Largest `.gitignore` read (1 MB); a larger one is skipped. */
const MAX_GITIGNORE_BYTES = 1024 * 1024;

/** One entry the walk found. */
export interface TreeEntry {
  /** The absolute path, below the path its root was opened by. */
  absolute: string;
  /** The path for the model: relative to the first root, absolute in a further root. */
  shown: string;
  /** The path relative to the directory the walk started in. */
  below: string;
  kind: "file" | "directory" | "symlink" | "other";
  /** 1 for the start directory's own entries. */
  depth: number;
}

/** How {@linkcode walkTree} walks. */
export interface WalkOptions {
  /** Also walk what `.gitignore` files ignore (default false). */
  gitignored?: boolean;
  /** Deepest level listed (default: every level). */
  maxDepth?: number;
}

/** The rules of one ignore file and the directory it applies below. */
interface Layer {
  dir: string;
  rules: IgnoreRules;
}

/**
 * The entries below `start` (an absolute path {@linkcode Workspace.resolve} returned, a
 * directory), each directory before what it holds, names in code-unit order.
 * Contract: never follows a symbolic link (links are listed as such); never lists `.git` or
 * what the first root's `.powercodeignore` ignores (nor anything below an ignored
 * directory); with `gitignored` off, the same for what the `.gitignore` files from the root
 * down to each directory and the root's `.git/info/exclude` ignore, by git's rules (the
 * deepest file that has a matching pattern decides). Reads synchronously: a walk of 10 000
 * entries takes a few tens of milliseconds; the caller stops it by leaving the loop.
 * Limit: a directory swapped for a symbolic link between its listing and the walk into it
 * is followed (Deno's permissions still confine what is read to the allowed paths).
 */
export function* walkTree(
  workspace: Workspace,
  start: string,
  options: WalkOptions = {},
): Generator<TreeEntry> {
  const root =
    workspace.roots.find((each) => start === each.access || start.startsWith(`${each.access}/`)) ??
      workspace.roots[0];
  const first = root === workspace.roots[0];
  const layers: Layer[] = [];
  if (!options.gitignored) layers.push(...ancestorLayers(root.access, start));
  const maxDepth = options.maxDepth ?? Infinity;
  function* walk(dir: string, depth: number): Generator<TreeEntry> {
    let names: Deno.DirEntry[];
    try {
      names = [...Deno.readDirSync(dir)];
    } catch {
      return; // gone or unreadable meanwhile
    }
    names.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    const pushed = !options.gitignored && names.some((e) => e.name === ".gitignore" && e.isFile)
      ? pushLayer(layers, dir)
      : false;
    try {
      for (const entry of names) {
        if (entry.name === ".git") continue;
        const absolute = `${dir}/${entry.name}`;
        const isDirectory = entry.isDirectory;
        if (first && workspace.ignore.size > 0) {
          const fromRoot = absolute.slice(root.access.length + 1);
          if (workspace.ignore.ignores(fromRoot, isDirectory)) continue;
        }
        if (ignoredBy(layers, absolute, isDirectory)) continue;
        const kind = entry.isSymlink
          ? "symlink"
          : isDirectory
          ? "directory"
          : entry.isFile
          ? "file"
          : "other";
        yield {
          absolute,
          shown: workspace.relative(absolute),
          below: absolute.slice(start.length + 1),
          kind,
          depth,
        };
        if (kind === "directory" && depth < maxDepth) yield* walk(absolute, depth + 1);
      }
    } finally {
      if (pushed) layers.pop();
    }
  }
  yield* walk(start, 1);
}

/** The ignore layers of `.git/info/exclude` and of each `.gitignore` from `root` to above `start`. */
function ancestorLayers(root: string, start: string): Layer[] {
  const layers: Layer[] = [];
  const exclude = readRules(`${root}/.git/info/exclude`);
  if (exclude) layers.push({ dir: root, rules: exclude });
  const parts = start === root ? [] : start.slice(root.length + 1).split("/");
  let dir = root;
  for (let index = 0; index < parts.length; index++) {
    pushLayer(layers, dir);
    dir = `${dir}/${parts[index]}`;
  }
  return layers;
}

/** Adds the rules of `dir/.gitignore` when it holds any; whether it added. */
function pushLayer(layers: Layer[], dir: string): boolean {
  const rules = readRules(`${dir}/.gitignore`);
  if (!rules) return false;
  layers.push({ dir, rules });
  return true;
}

/** The rules of the ignore file at `path`, when it is a regular file with a pattern. */
function readRules(path: string): IgnoreRules | undefined {
  try {
    const info = Deno.lstatSync(path);
    if (!info.isFile || info.size > MAX_GITIGNORE_BYTES) return undefined;
    const rules = IgnoreRules.parse(Deno.readTextFileSync(path));
    return rules.size > 0 ? rules : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the deepest layer with a pattern matching `absolute` ignores it. */
function ignoredBy(layers: readonly Layer[], absolute: string, isDirectory: boolean): boolean {
  for (let index = layers.length - 1; index >= 0; index--) {
    const layer = layers[index];
    if (layer === undefined) continue;
    const verdict = layer.rules.decide(absolute.slice(layer.dir.length + 1), isDirectory);
    if (verdict !== undefined) return verdict;
  }
  return false;
}
