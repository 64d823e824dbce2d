/**
 * Opening the session a run works on: a new one (its file appears with its first record),
 * the most recent one, or one by id.
 *
 * @module
 */
import { type PathsOf, Session, type SessionSink } from "./session.ts";
import type { TodoOf } from "./todo_tracker.ts";
import { SessionError, type SessionFile, type SessionStore } from "./store.ts";

/** Which session to open. */
export type SessionChoice =
  | { kind: "new" }
  | { kind: "latest" }
  | { kind: "id"; id: string }
  /** A new session holding session `id`'s conversation, up to `entry` (default: its last). */
  | { kind: "fork"; id: string; entry?: number };

/** What every opened session needs. */
export interface OpenSessionOptions {
  /** Written into a new session file's header. */
  model: string;
  /** Written into a new session file's header: the directories the tools work on. */
  roots?: readonly string[];
  /** Written into a new session file's header: `print` for a `-p` run. */
  origin?: "print";
  /** Written into a new session file's header: the session whose `task` call runs this one. */
  parentSession?: string;
  pathsOf?: PathsOf;
  todoOf?: TodoOf;
  /** Receives one-line notices (resumed, nothing to continue, load warnings). */
  report: (line: string) => void;
}

/**
 * Opens the chosen session.
 * Contract: a missing, damaged or locked session throws a `SessionError` whose one-line
 * message names the file or id and says how to start fresh; `latest` without any session starts a new one
 * and reports it.
 */
export async function openSession(
  store: SessionStore,
  choice: SessionChoice,
  options: OpenSessionOptions,
): Promise<Session> {
  if (choice.kind === "fork") return await forkSession(store, choice, options);
  let id = choice.kind === "id" ? await resolvePrefix(store, choice.id) : undefined;
  if (choice.kind === "latest") {
    id = await store.latest();
    if (id === undefined) options.report("No earlier session to continue; starting a new one");
  }
  if (id === undefined) return newSession(store, options);
  const loaded = await store.load(id).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    throw new SessionError(
      `${message}; run powercode without --continue/--resume for a new session`,
    );
  });
  for (const warning of loaded.warnings) options.report(`⚠ ${warning}`);
  const session = Session.fromEntries(loaded.entries, {
    sink: loaded.file,
    ...(options.pathsOf ? { pathsOf: options.pathsOf } : {}),
    ...(options.todoOf ? { todoOf: options.todoOf } : {}),
  });
  options.report(`Resumed session ${id} (${session.history.length} messages)`);
  return session;
}

/**
 * A new session whose records are the path to entry `choice.entry` of session `choice.id`.
 * Contract: throws a `SessionError` when that session cannot be read or has no such entry;
 * the session forked from is left as it was.
 */
async function forkSession(
  store: SessionStore,
  choice: { id: string; entry?: number },
  options: OpenSessionOptions,
): Promise<Session> {
  const id = await resolvePrefix(store, choice.id);
  const loaded = await store.load(id).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    throw new SessionError(message.replace("Cannot resume", "Cannot fork"));
  });
  loaded.file.close();
  const source = Session.fromEntries(loaded.entries);
  let records;
  try {
    records = source.pathRecords(choice.entry);
  } catch {
    throw new SessionError(
      `Cannot fork session "${id}": it has no entry ${choice.entry} (/tree lists them)`,
    );
  }
  const session = newSession(store, options);
  session.adopt(records);
  options.report(`Forked session ${id} into a new session (${session.history.length} messages)`);
  return session;
}

/**
 * The one session id that starts with `prefix`, or `prefix` itself when none or it is a
 * whole id (loading then reports it missing).
 * Contract: throws a `SessionError` listing the candidates when the prefix is ambiguous.
 */
async function resolvePrefix(store: SessionStore, prefix: string): Promise<string> {
  const ids = await store.ids();
  if (ids.includes(prefix)) return prefix;
  const matches = ids.filter((id) => id.startsWith(prefix));
  if (matches.length <= 1) return matches[0] ?? prefix;
  const shown = matches.slice(0, 5).join(", ") + (matches.length > 5 ? ", …" : "");
  throw new SessionError(
    `Cannot resume session "${prefix}": ${matches.length} sessions start with it (${shown}); give more of the id`,
  );
}

/**
 * A new, empty session in `store`.
 * Contract: its file is created with the first record, so a run that does nothing leaves none.
 */
export function newSession(
  store: SessionStore,
  options: Omit<OpenSessionOptions, "report">,
): Session {
  let file: SessionFile | undefined;
  const sink: SessionSink = {
    get id() {
      return file?.id;
    },
    write(record) {
      file ??= store.create({
        model: options.model,
        ...(options.roots ? { roots: options.roots } : {}),
        ...(options.origin ? { origin: options.origin } : {}),
        ...(options.parentSession !== undefined ? { parentSession: options.parentSession } : {}),
      });
      file.write(record);
    },
    close: () => file?.close(),
  };
  return new Session({
    sink,
    ...(options.pathsOf ? { pathsOf: options.pathsOf } : {}),
    ...(options.todoOf ? { todoOf: options.todoOf } : {}),
  });
}
