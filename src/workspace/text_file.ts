/**
 * Text files in the workspace as the file tools share them: decoding, reading a whole
 * file for an edit, and the atomic write.
 *
 * @module
 */
import { RegularFile } from "./regular_file.ts";
import { formatSize } from "../core/mod.ts";
import { MAX_EDIT_BYTES, type Workspace } from "./workspace.ts";

/** The text of a file, or why it is not text. */
export type DecodedText = { kind: "text"; text: string } | { kind: "binary"; reason: string };

/**
 * Decodes file bytes as UTF-8 text.
 * Contract: a NUL byte or invalid UTF-8 anywhere makes the file binary; a
 * leading byte order mark is kept in the text. With `cut`, the bytes end inside the
 * file, and a character cut in half at their end is dropped instead.
 */
export function decodeText(bytes: Uint8Array, options: { cut?: boolean } = {}): DecodedText {
  if (bytes.includes(0)) return { kind: "binary", reason: "binary file (it contains NUL bytes)" };
  try {
    const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    return { kind: "text", text: decoder.decode(bytes, { stream: options.cut ?? false }) };
  } catch {
    return { kind: "binary", reason: "binary file (it is not valid UTF-8)" };
  }
}

/**
 * Reads a workspace file as text, for edit_file.
 * Contract: throws an Error starting with `Cannot <action> "<path>":` when the file is
 * missing, not a regular file (never blocking on a FIFO), larger than
 * {@linkcode MAX_EDIT_BYTES} or binary; reads at most that many bytes plus one.
 */
export async function readTextFile(
  workspace: Workspace,
  path: string,
  action: string,
): Promise<string> {
  await using file = await RegularFile.open(workspace, path, action);
  const bytes = file.size > MAX_EDIT_BYTES ? undefined : await file.readAll(MAX_EDIT_BYTES);
  if (!bytes) {
    throw new RangeError(
      `Cannot ${action} "${path}": the file is ${formatSize(file.size)}, more than the ` +
        `${formatSize(MAX_EDIT_BYTES)} edit_file changes; change it with bash (sed, a script)`,
    );
  }
  const decoded = decodeText(bytes);
  if (decoded.kind === "binary") {
    throw new TypeError(`Cannot ${action} "${path}": ${decoded.reason}`);
  }
  return decoded.text;
}

/** The start of a text file, as {@linkcode readTextHead} read it. */
export interface TextHead {
  text: string;
  /** The file's size in bytes. */
  size: number;
  /** Whether the file holds more than the text. */
  cut: boolean;
}

/**
 * Reads at most `limit` bytes from the start of a workspace file as text, whatever the
 * file's size.
 * Contract: throws an Error starting with `Cannot <action> "<path>":` when the file is
 * missing, not a regular file (never blocking on a FIFO) or binary (judged on the bytes
 * read); a character cut in half at the limit is left out.
 */
export async function readTextHead(
  workspace: Workspace,
  path: string,
  options: { action: string; limit: number },
): Promise<TextHead> {
  const { action, limit } = options;
  await using file = await RegularFile.open(workspace, path, action);
  const bytes = await file.read(0, limit + 1);
  const cut = bytes.length > limit;
  const decoded = decodeText(bytes.subarray(0, limit), { cut });
  if (decoded.kind === "binary") {
    throw new TypeError(`Cannot ${action} "${path}": ${decoded.reason}`);
  }
  return { text: decoded.text, size: Math.max(file.size, bytes.length), cut };
}

/**
 * Replaces the file at `path` with `data` atomically: a temp file in the same
 * directory, then a rename over the target.
 * Contract: readers see either the old or the new content, never a mix; an
 * existing file keeps its permission bits; on failure the temp file is removed
 * and the target is untouched. The temp file's name is short (`.pc-<random>.tmp`), so
 * any name the file system allows can be written.
 * Contract: throws `Deno.errors.IsADirectory` when `path` is a directory.
 */
export async function writeFileAtomic(path: string, data: Uint8Array): Promise<void> {
  const mode = await existingMode(path);
  const slash = path.lastIndexOf("/");
  const temp = `${path.slice(0, slash)}/.pc-${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeFile(temp, data, { createNew: true, mode: mode ?? 0o644 });
    if (mode !== undefined) await Deno.chmod(temp, mode);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

async function existingMode(path: string): Promise<number | undefined> {
  try {
    const info = await Deno.stat(path);
    if (info.isDirectory) throw new Deno.errors.IsADirectory(`"${path}" is a directory`);
    return info.mode === null ? undefined : info.mode & 0o7777;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}
