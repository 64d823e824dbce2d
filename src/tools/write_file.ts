/**
 * The `write_file` tool and the atomic write that `edit_file` shares.
 *
 * @module
 */
import type { Tool } from "./registry.ts";
import { PATH_PARAMETER, type Workspace } from "./paths.ts";
import { formatSize } from "./truncate.ts";

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

async function makeParents(absolute: string, path: string): Promise<void> {
  try {
    await Deno.mkdir(absolute.slice(0, absolute.lastIndexOf("/")) || "/", { recursive: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotADirectory || error instanceof Deno.errors.AlreadyExists) {
      throw new Deno.errors.NotADirectory(
        `Cannot write "${path}": a parent of it is a file, not a directory`,
      );
    }
    throw error;
  }
}

/**
 * Creates the `write_file` tool for `workspace`.
 * Contract: creates missing parent directories, writes atomically, and reports
 * the number of bytes written; refuses paths outside the workspace and directories.
 */
export function createWriteFileTool(workspace: Workspace): Tool {
  return {
    name: "write_file",
    description: "Create a file or replace its whole content. Missing parent directories are " +
      "created; the write is atomic. Prefer edit_file for changing part of an existing file.",
    parameters: {
      type: "object",
      properties: {
        path: PATH_PARAMETER,
        content: { type: "string", description: "The complete new content of the file" },
      },
      required: ["path", "content"],
    },
    async execute(args) {
      const { path, content } = args;
      if (typeof path !== "string" || typeof content !== "string") {
        throw new TypeError("Cannot write file: path and content must be strings");
      }
      const absolute = await workspace.resolve(path);
      const previous = await Deno.stat(absolute).catch(() => undefined);
      if (previous?.isDirectory) {
        throw new Deno.errors.IsADirectory(`Cannot write "${path}": it is a directory`);
      }
      await makeParents(absolute, path);
      const data = new TextEncoder().encode(content);
      await writeFileAtomic(absolute, data);
      const what = previous ? `replaced ${previous.size} bytes` : "new file";
      return {
        content: `Wrote ${data.length} bytes to "${path}" (${what})`,
        summary: formatSize(data.length),
      };
    },
  };
}
