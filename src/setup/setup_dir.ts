/**
 * A directory the user's setup is read from: one at the first root (`.claude/commands`),
 * read through the workspace's confinement, or one of the user's own
 * (`~/.config/powercode/commands`), read directly.
 *
 * @module
 */
import { decodeText, readTextHead, type TextHead, type Workspace } from "../workspace/mod.ts";

/** Where a setup directory lies: a project's files are data the model may be shown, no more. */
export type SetupOrigin = "project" | "user";

/** One directory of the setup. */
export interface SetupDir {
  origin: SetupOrigin;
  /** How the user knows it: `.claude/commands`, `~/.config/powercode/commands`. */
  label: string;
  /**
   * The names of its entries that are directories (`dirs`) or regular files (`files`), and
   * of its symbolic links (a read through one is checked), sorted; empty when it does not
   * exist.
   * Contract: throws for a directory that exists but cannot be listed.
   */
  list(kind: "dirs" | "files"): Promise<string[]>;
  /**
   * Reads at most `limit` bytes of `name` (relative to the directory) as text.
   * Contract: throws `Deno.errors.NotFound` when missing, and an Error with a message for a
   * file that is not a regular file or not text.
   */
  read(name: string, limit: number): Promise<TextHead>;
  /** The path of `name` as the model can name it (workspace-relative for a project's). */
  pathOf(name: string): string;
}

/** The directory `relative` (e.g. `.claude/skills`) at the first root of `workspace`. */
export function projectDir(workspace: Workspace, relative: string): SetupDir {
  return {
    origin: "project",
    label: relative,
    list: async (kind) => {
      let dir: string;
      try {
        dir = await workspace.resolve(relative);
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return [];
        throw error;
      }
      return await listDir(dir, kind);
    },
    read: (name, limit) =>
      readTextHead(workspace, `${relative}/${name}`, { action: "read", limit }),
    pathOf: (name) => `${relative}/${name}`,
  };
}

/** The user's own directory at absolute `path`, shown as `label`. */
export function userDir(path: string, label: string): SetupDir {
  return {
    origin: "user",
    label,
    list: (kind) => listDir(path, kind),
    read: (name, limit) => readOwnText(`${path}/${name}`, limit),
    pathOf: (name) => `${path}/${name}`,
  };
}

/**
 * Reads at most `limit` bytes of the user's own file at `path` as text.
 * Contract: throws `Deno.errors.NotFound` when missing, a `TypeError` for a file that is no
 * regular file (checked before opening, so a FIFO never blocks) or not text.
 */
export async function readOwnText(path: string, limit: number): Promise<TextHead> {
  const info = await Deno.stat(path);
  if (!info.isFile) throw new TypeError("it is not a regular file");
  using file = await Deno.open(path);
  const bytes = new Uint8Array(limit + 1);
  let filled = 0;
  while (filled < bytes.length) {
    const read = await file.read(bytes.subarray(filled));
    if (read === null) break;
    filled += read;
  }
  const cut = filled > limit;
  const decoded = decodeText(bytes.subarray(0, Math.min(filled, limit)), { cut });
  if (decoded.kind === "binary") throw new TypeError(decoded.reason);
  return { text: decoded.text, size: Math.max(info.size, filled), cut };
}

async function listDir(dir: string, kind: "dirs" | "files"): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isSymlink || (kind === "dirs" ? entry.isDirectory : entry.isFile)) {
        names.push(entry.name);
      }
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return [];
    }
    throw error;
  }
  return names.sort();
}

/** What is wrong with a file, without the `Cannot … "path":` lead and hints to the model. */
export function problemOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^Cannot [^"]*"[^"]*": /, "").split("; ")[0] ?? message;
}
