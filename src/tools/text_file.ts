/**
 * Text files in the workspace as the file tools share them: decoding, reading with
 * the checks every tool needs, and the atomic write.
 *
 * @module
 */
import type { Workspace } from "./workspace.ts";

/** Files larger than this are refused: the model should page them with bash. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** The text of a file, or why it is not text. */
export type DecodedText = { kind: "text"; text: string } | { kind: "binary"; reason: string };

/**
 * Decodes file bytes as UTF-8 text.
 * Contract: a NUL byte or invalid UTF-8 anywhere makes the file binary; a
 * leading byte order mark is kept in the text.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes.includes(0)) return { kind: "binary", reason: "binary file (it contains NUL bytes)" };
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    return { kind: "text", text };
  } catch {
    return { kind: "binary", reason: "binary file (it is not valid UTF-8)" };
  }
}

/**
 * Reads a workspace file as text, for the tools that read before they act.
 * Contract: throws an Error starting with `Cannot <action> "<path>":` when the
 * file is missing, a directory, larger than 64 MB or binary.
 */
export async function readTextFile(
  workspace: Workspace,
  path: string,
  action: string,
): Promise<string> {
  const absolute = await workspace.resolve(path);
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(absolute);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      throw new Deno.errors.NotFound(`Cannot ${action} "${path}": file not found`);
    }
    throw error;
  }
  if (info.isDirectory) {
    throw new Deno.errors.IsADirectory(
      `Cannot ${action} "${path}": it is a directory; list it with bash (ls)`,
    );
  }
  if (info.size > MAX_FILE_BYTES) {
    throw new RangeError(
      `Cannot ${action} "${path}": the file is larger than 64 MB; look into it with bash ` +
        `(head, tail, grep, sed -n)`,
    );
  }
  const decoded = decodeText(await Deno.readFile(absolute));
  if (decoded.kind === "binary") {
    throw new TypeError(`Cannot ${action} "${path}": ${decoded.reason}`);
  }
  return decoded.text;
}

/**
 * Replaces the file at `path` with `data` atomically: a temp file in the same
 * directory, then a rename over the target.
 * Contract: readers see either the old or the new content, never a mix; an
 * existing file keeps its permission bits; on failure the temp file is removed
 * and the target is untouched.
 * Contract: throws `Deno.errors.IsADirectory` when `path` is a directory.
 */
export async function writeFileAtomic(path: string, data: Uint8Array): Promise<void> {
  const mode = await existingMode(path);
  const slash = path.lastIndexOf("/");
  const suffix = crypto.randomUUID().slice(0, 8);
  const temp = `${path.slice(0, slash)}/.${path.slice(slash + 1)}.${suffix}.tmp`;
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
