/**
 * Wiring the undo layer: snapshots in the state directory the assembly names, symbolic
 * links restored through the sandbox that runs bash (Deno creates links only with unscoped
 * permissions).
 *
 * @module
 */
import type { ToolCall } from "../core/mod.ts";
import type { Sandbox, Workspace } from "../tools/mod.ts";
import { type IsIgnored, Snapshots, type Symlinker, TaskUndo } from "../undo/mod.ts";

/** Where task snapshots go. */
export interface UndoSetup {
  /** The snapshots' directory, in the state directory (e.g. `.powercode/snapshots`). */
  dir: string;
}

/** How long creating one link may take before the restore gives up on it. */
const LINK_TIMEOUT_MS = 10_000;

/**
 * The undo for `setup` over `options.workspace`'s roots, leaving out what its ignore file
 * ignores; links are made by `commands` when there are any.
 */
export function createTaskUndo(
  setup: UndoSetup,
  options: {
    workspace: Workspace;
    commands?: Sandbox;
    warn: (line: string) => void;
    /** Whether a call may change files: by its tool's declared effect. */
    mayChange?: (call: ToolCall) => boolean;
    /** The snapshots to use (shared with a preview); default: new ones for `setup`. */
    snapshots?: Snapshots;
  },
): TaskUndo {
  const snapshots = options.snapshots ?? createSnapshots(setup, options);
  return new TaskUndo(snapshots, {
    warn: options.warn,
    ...(options.mayChange ? { mayChange: options.mayChange } : {}),
  });
}

/**
 * The snapshots of `options.workspace`'s roots in `setup.dir`, leaving out what its ignore
 * file ignores; links are made by `commands` when there are any.
 */
export function createSnapshots(
  setup: UndoSetup,
  options: { workspace: Workspace; commands?: Sandbox },
): Snapshots {
  const { workspace } = options;
  const symlink = options.commands && sandboxSymlinker(options.commands);
  const first = workspace.roots[0].access;
  const ignored: IsIgnored = (root, path, isDirectory) =>
    root === first && workspace.ignore.size > 0 &&
    workspace.ignore.match(path, isDirectory) !== undefined;
  return new Snapshots({
    dir: setup.dir,
    roots: workspace.roots.map((root) => root.access),
    isIgnored: ignored,
    ...(symlink ? { symlink } : {}),
  });
}

/**
 * Creates links with `ln -s` where bash runs; undefined when bash cannot run (links are then
 * reported as not restorable), as far as known: call `commands.ready()` first to know.
 */
export function sandboxSymlinker(commands: Sandbox): Symlinker | undefined {
  if (commands.mode === "unavailable") return undefined;
  return async (root, path, target) => {
    // The sandbox binds each root at its real path.
    const place = `${await Deno.realPath(root)}/${path}`;
    const { output, end } = await commands.run(`ln -sfn -- ${quote(target)} ${quote(place)}`, {
      timeoutMs: LINK_TIMEOUT_MS,
      signal: new AbortController().signal,
    });
    if (end.kind === "exit" && end.code === 0) return;
    throw new Error(`Cannot restore the link "${path}": ${output.text.trim() || end.kind}`);
  };
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
