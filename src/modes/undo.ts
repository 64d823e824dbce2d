/**
 * `powercode --undo`: takes back the last task of the latest session from the shell, files
 * and conversation, without a provider file or a model.
 *
 * @module
 */
import {
  bashOptions,
  createTaskUndo,
  requireWorkspace,
  type RunStart,
  sessionsDir,
  snapshotsDir,
} from "../app/mod.ts";
import { Session, SessionStore } from "../session/mod.ts";
import { sanitizeLine, writeTo } from "../terminal/mod.ts";
import { createTools, type CreateToolsOptions } from "../tools/mod.ts";

/** `--undo`: the last task of the latest session taken back, without a provider file. */
export async function undoMode(start: RunStart): Promise<number> {
  await requireWorkspace(start);
  return await undoFromShell({
    store: new SessionStore(sessionsDir(start)),
    workspaceDir: start.workspaceDir,
    setup: { dir: snapshotsDir(start) },
    bash: bashOptions(start),
    force: start.cli.force,
    out: (line) => writeTo(Deno.stdout)(`${line}\n`),
    err: (line) => writeTo(Deno.stderr)(`${line}\n`),
  });
}

/** What `--undo` works on and where it writes. */
export interface HeadlessUndoOptions {
  store: SessionStore;
  workspaceDir: string;
  setup: { dir: string };
  /** How bash runs: the links restored are made where it runs. */
  bash: CreateToolsOptions;
  force: boolean;
  /** The paths restored and the summary line (stdout). */
  out: (line: string) => void;
  /** Why nothing was undone (stderr). */
  err: (line: string) => void;
}

/**
 * Undoes the last task of the latest session.
 * Contract: returns 0 when it was undone, 1 with one line saying why when not (no session,
 * nothing to undo, the session in use, files changed since the task ended); never throws.
 */
export async function undoFromShell(options: HeadlessUndoOptions): Promise<number> {
  let session: Session | undefined;
  try {
    const id = await options.store.latest();
    if (id === undefined) throw new Error("Nothing to undo: there is no session yet");
    const loaded = await options.store.load(id);
    session = Session.fromEntries(loaded.entries, { sink: loaded.file });
    const { workspace, sandbox } = await createTools(options.workspaceDir, options.bash);
    // Links are restored by commands: whether bash can run decides which are restorable.
    await sandbox.ready();
    const undo = createTaskUndo(options.setup, { workspace, commands: sandbox, warn: options.err });
    const outcome = await undo.back(session, session.tasks.length, {
      files: true,
      chat: true,
      force: options.force,
    });
    if (outcome.type === "conflict") {
      const paths = outcome.paths.map(sanitizeLine).join(", ");
      throw new Error(
        `Cannot undo: changed since the task ended: ${paths}; powercode --undo --force overwrites them`,
      );
    }
    for (const path of outcome.restored) options.out(`restored ${sanitizeLine(path)}`);
    for (const path of outcome.removed) options.out(`removed ${sanitizeLine(path)}`);
    for (const path of outcome.notRestorable) options.err(`⚠ not restored: ${sanitizeLine(path)}`);
    const count = outcome.restored.length;
    options.out(
      `Undone in session ${id}: restored ${count} file${count === 1 ? "" : "s"}, ` +
        `removed ${outcome.removed.length}`,
    );
    return 0;
  } catch (error) {
    options.err(
      `powercode: ${sanitizeLine(error instanceof Error ? error.message : String(error))}`,
    );
    return 1;
  } finally {
    session?.close();
  }
}
