/**
 * Sessions on disk: one append-only JSONL file per session, `<dir>/<id>.jsonl`. The first
 * line is a {@link SessionHeader}; every further line is one {@link SessionRecord}.
 *
 * @module
 */
import { firstTyped } from "../core/mod.ts";
import { loadImages, storeImages } from "./image_files.ts";
import { SESSION_VERSION, type SessionHeader } from "./header.ts";
import { SessionError } from "./session_error.ts";
import { Session, type SessionRecord, type SessionSink } from "./session.ts";
import type { SessionEntry } from "./session_tree.ts";

export type { SessionHeader } from "./header.ts";
export { SessionError } from "./session_error.ts";

/** A session read back from disk, with its file open for appending. */
export interface LoadedSession {
  header: SessionHeader;
  /** The records on the path to the last line. */
  records: SessionRecord[];
  /** Every record with its place in the session's tree. */
  entries: SessionEntry<SessionRecord>[];
  warnings: string[];
  file: SessionFile;
}

/** One line of `/sessions`. */
export interface SessionInfo {
  id: string;
  created: string;
  /** When the file last changed (ISO 8601): the order of the list and of `--continue`. */
  lastUsed: string;
  firstTask: string;
  messages: number;
  /** Made by a `-p` run (absent for an interactive session). */
  print?: true;
  /** The session whose `task` call ran this one (a subagent's); absent otherwise. */
  parent?: string;
}

/** Rewrites a string before it reaches the file. */
export type Redact = (text: string) => string;

const ID_PATTERN = /^[A-Za-z0-9_-]+$/;
const EXTENSION = ".jsonl";
const NEWLINE = 0x0a;
// A pipe shows the first task whole up to this; a terminal cuts it to its width.
const FIRST_TASK_LENGTH = 500;

/**
 * An open session file that appends every record as one JSON line.
 * Contract: `write` returns only after its line was handed to the OS by a synchronous append,
 * so killing the process right afterwards loses nothing; each write costs O(record size).
 */
export class SessionFile implements SessionSink {
  #file: Deno.FsFile | undefined;
  #redact: Redact | undefined;

  /** Wraps `file` (session `id` at `path`), opened for appending; get one from SessionStore. */
  constructor(
    readonly id: string,
    readonly path: string,
    file: Deno.FsFile,
    options: { redact?: Redact | undefined } = {},
  ) {
    this.#file = file;
    this.#redact = options.redact;
  }

  /**
   * Appends `record` as one line. Throws when the file is closed or the disk refuses.
   * Contract: every string in the record passes through the store's `redact` first; a
   * message's images go to their files beside the session file, the line names their hashes.
   */
  write(record: SessionRecord): void {
    if (!this.#file) throw new Error(`Cannot write to session "${this.path}": the file is closed`);
    appendLine(this.#file, storeImages(record, dirOf(this.path)), this.#redact);
  }

  /** Closes the file; later writes throw. Closing twice is harmless. */
  close(): void {
    this.#file?.close();
    this.#file = undefined;
  }

  /** Closes the file, for `using`. */
  [Symbol.dispose](): void {
    this.close();
  }
}

/**
 * The session files under one directory, created on the first write.
 * Contract: touches only `<dir>/<id>.jsonl` paths; ids are checked before use, so an id
 * cannot name a path outside `dir`.
 */
export class SessionStore {
  #redact: Redact | undefined;

  /**
   * A store over `dir` (e.g. `.powercode/sessions`); nothing is touched until `create`.
   * `redact` rewrites every string before it is written (it removes the provider's secrets).
   */
  constructor(readonly dir: string, options: { redact?: Redact | undefined } = {}) {
    this.#redact = options.redact;
  }

  /**
   * Starts a new session file whose header line is on disk when this returns.
   * Contract: the file is locked for this process until the SessionFile is closed.
   */
  create(
    options: {
      model: string;
      roots?: readonly string[];
      origin?: "print";
      parentSession?: string;
    },
  ): SessionFile {
    // Private to the user, also when an older powercode made it readable.
    Deno.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    Deno.chmodSync(this.dir, 0o700);
    const created = new Date().toISOString();
    const id = newId(created);
    const path = this.#path(id);
    // `createNew` never clobbers an existing session, however unlikely an id collision is.
    const file = Deno.openSync(path, { append: true, createNew: true, mode: 0o600 });
    file.lockSync(true);
    const { model, roots, origin, parentSession } = options;
    const header = {
      type: "session",
      version: SESSION_VERSION,
      id,
      created,
      model,
      // Before the roots, so that `latest` finds it in the line's first bytes.
      ...(origin ? { origin } : {}),
      ...(parentSession !== undefined ? { parentSession } : {}),
      ...(roots ? { roots } : {}),
    };
    appendLine(file, header, this.#redact);
    return new SessionFile(id, path, file, { redact: this.#redact });
  }

  /**
   * Reads session `id` and opens it for appending.
   * Contract: throws a `SessionError` naming the session when it does not exist or another
   * process has it open (an exclusive `flock` held as long as the SessionFile is open; the
   * kernel drops it when a process dies, so a crash leaves no stale lock).
   * Contract: a torn last line is skipped with a warning and cut from the file, so the next
   * append starts on a new line; any other malformed or inconsistent line throws a
   * `SessionError` naming the file and line, and leaves the file untouched.
   */
  async load(id: string): Promise<LoadedSession> {
    const path = this.#path(id);
    const file = ID_PATTERN.test(id) ? await openIfExists(path) : undefined;
    if (!file) {
      throw new SessionError(`Cannot resume session "${id}": no such session in ${this.dir}`);
    }
    try {
      if (!await file.tryLock(true)) {
        throw new SessionError(
          `Cannot resume session "${id}": another powercode process is using it ("${path}" ` +
            "is locked); wait for it to end",
        );
      }
      const bytes = await Deno.readFile(path);
      const parsed = (await loadParser())(bytes, path);
      if (parsed.keptBytes < bytes.length) await Deno.truncate(path, parsed.keptBytes);
      if (parsed.keptBytes > 0 && bytes[parsed.keptBytes - 1] !== NEWLINE) {
        writeAll(file, new TextEncoder().encode("\n"));
      }
      const { header, records, entries, warnings } = parsed;
      await loadImages(entries.map((entry) => entry.record), { dir: this.dir, path });
      return {
        header,
        records,
        entries,
        warnings,
        file: new SessionFile(id, path, file, { redact: this.#redact }),
      };
    } catch (error) {
      file.close();
      throw error;
    }
  }

  /**
   * The id of the most recently modified interactive session (what `--continue` takes), or
   * of the latest `-p` session when there is no other; undefined when there is none. A
   * subagent's session is never taken.
   */
  async latest(): Promise<string | undefined> {
    const found: string[] = [];
    for (const { id } of await this.#byRecency()) {
      const head = await this.#headLine(id);
      if (/"parentSession":"/.test(head)) continue;
      if (!/"origin":"print"/.test(head)) return id;
      found.push(id);
    }
    return found[0];
  }

  /** Every session id in the directory, most recently modified first. */
  ids(): Promise<string[]> {
    return this.#idsByRecency();
  }

  /**
   * Up to `limit` sessions: the interactive ones first, then those `-p` runs made, each
   * most recently modified first (the order `--continue` prefers); a subagent's session
   * right under its parent's (at the end when its parent is not listed).
   * Contract: files that cannot be read or parsed are left out; `load` reports them.
   */
  async list(limit: number): Promise<SessionInfo[]> {
    const infos: SessionInfo[] = [];
    for (const { id, modified } of await this.#byRecency()) {
      const info = await this.#info(id, modified);
      if (info) infos.push(info);
    }
    const children = infos.filter((info) => info.parent !== undefined);
    const placed = new Set<SessionInfo>();
    const under = (info: SessionInfo): SessionInfo[] => {
      placed.add(info);
      const own = children.filter((child) => child.parent === info.id && !placed.has(child));
      return [info, ...own.flatMap(under)];
    };
    const top = infos.filter((info) => info.parent === undefined);
    const listed = [...top.filter((info) => !info.print), ...top.filter((info) => info.print)]
      .flatMap(under);
    return [...listed, ...children.filter((child) => !placed.has(child))].slice(0, limit);
  }

  /** The first line of session `id`'s file, up to 4 KB (empty when it cannot be read). */
  async #headLine(id: string): Promise<string> {
    try {
      const file = await Deno.open(this.#path(id));
      try {
        const head = new Uint8Array(4096);
        const read = await file.read(head) ?? 0;
        return new TextDecoder().decode(head.subarray(0, read)).split("\n")[0] ?? "";
      } finally {
        file.close();
      }
    } catch {
      return "";
    }
  }

  #path(id: string): string {
    return `${this.dir}/${id}${EXTENSION}`;
  }

  async #info(id: string, modified: number): Promise<SessionInfo | undefined> {
    const path = this.#path(id);
    try {
      const { header, records } = (await loadParser())(await Deno.readFile(path), path);
      // The conversation as it stands: undone tasks are not counted.
      const messages = Session.fromRecords(records).history;
      // What the person typed, not powercode's notes; a pasted task as it was shown (its label).
      const first = firstTyped(messages);
      const task = first ? first.shown ?? first.content : "";
      const lastUsed = new Date(modified).toISOString();
      return {
        id,
        created: header.created,
        lastUsed,
        firstTask: oneLine(task),
        messages: messages.length,
        ...(header.origin === "print" ? { print: true as const } : {}),
        ...(header.parentSession !== undefined ? { parent: header.parentSession } : {}),
      };
    } catch {
      return undefined;
    }
  }

  async #idsByRecency(): Promise<string[]> {
    return (await this.#byRecency()).map((entry) => entry.id);
  }

  /** The session files, the last changed first, with when they changed (ms since the epoch). */
  async #byRecency(): Promise<{ id: string; modified: number }[]> {
    const found: { id: string; modified: number }[] = [];
    try {
      for await (const entry of Deno.readDir(this.dir)) {
        const id = entry.name.slice(0, -EXTENSION.length);
        if (!entry.isFile || !entry.name.endsWith(EXTENSION) || !ID_PATTERN.test(id)) continue;
        const { mtime } = await Deno.stat(this.#path(id));
        found.push({ id, modified: mtime?.getTime() ?? 0 });
      }
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
    found.sort((a, b) => b.modified - a.modified || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return found;
  }
}

/** The directory of file `path`. */
function dirOf(path: string): string {
  const at = path.lastIndexOf("/");
  return at < 0 ? "." : path.slice(0, at);
}

function appendLine(file: Deno.FsFile, value: unknown, redact: Redact | undefined): void {
  const json = redact
    ? JSON.stringify(value, (_key, field) => typeof field === "string" ? redact(field) : field)
    : JSON.stringify(value);
  writeAll(file, new TextEncoder().encode(json + "\n"));
}

function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
}

async function openIfExists(path: string): Promise<Deno.FsFile | undefined> {
  try {
    return await Deno.open(path, { append: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** `20261202-110844-a1b2c3`: UTC date and time, so ids sort by creation, plus a random suffix. */
function newId(iso: string): string {
  const stamp = iso.slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
  const random = crypto.getRandomValues(new Uint8Array(3));
  return `${stamp}-${Array.from(random, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

function oneLine(text: string): string {
  const chars = Array.from(text.replace(/\s+/g, " ").trim());
  return chars.length <= FIRST_TASK_LENGTH
    ? chars.join("")
    : chars.slice(0, FIRST_TASK_LENGTH - 1).join("") + "…";
}

/** The session file's parser, loaded when a session is read (a new session never is). */
async function loadParser(): Promise<typeof import("./parse.ts").parseSession> {
  return (await import("./parse.ts")).parseSession;
}
