/**
 * The `write_file` tool: create or replace a workspace file.
 *
 * @module
 */
import { writeFileAtomic } from "../workspace/mod.ts";
import { type ArgsOf, defineParams, type Params, PATH_PARAMETER } from "./params.ts";
import type { Tool } from "./tool.ts";
import { MAX_EDIT_BYTES, type Workspace } from "../workspace/mod.ts";
import { formatSize } from "../core/mod.ts";

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

const WRITE_FILE_PARAMS = {
  path: PATH_PARAMETER,
  content: { type: "string", description: "The complete new content of the file" },
} as const satisfies Params;

/**
 * Creates the `write_file` tool for `workspace`.
 * Contract: creates missing parent directories, writes atomically, and reports
 * the number of bytes written (the summary: created or overwritten, lines, size); refuses
 * what {@linkcode Workspace.resolveWrite} refuses (escapes, git's control files, FIFOs,
 * sockets, devices, content larger than {@linkcode MAX_EDIT_BYTES}) and directories.
 */
export function createWriteFileTool(workspace: Workspace): Tool<ArgsOf<typeof WRITE_FILE_PARAMS>> {
  return {
    name: "write_file",
    effect: "write",
    description: "Create a file or replace its whole content. Missing parent directories are " +
      "created; the write is atomic. Prefer edit_file for changing part of an existing file. " +
      `Content larger than ${formatSize(MAX_EDIT_BYTES)} is refused.`,
    parameters: defineParams(WRITE_FILE_PARAMS),
    describe: ({ path }) => path,
    paths: ({ path }) => ({ modified: [path] }),
    async execute({ path, content }) {
      const data = new TextEncoder().encode(content);
      const { absolute, existing } = await workspace.resolveWrite(path, {
        action: "write",
        bytes: data.length,
      });
      if (existing?.isDirectory) {
        throw new Deno.errors.IsADirectory(`Cannot write "${path}": it is a directory`);
      }
      await makeParents(absolute, path);
      await writeFileAtomic(absolute, data);
      const what = existing ? `replaced ${existing.size} bytes` : "new file";
      const lines = content === ""
        ? 0
        : content.split("\n").length - (content.endsWith("\n") ? 1 : 0);
      return {
        content: `Wrote ${data.length} bytes to "${path}" (${what})`,
        summary: `${existing ? "overwritten" : "created"}, ${
          lines === 1 ? "1 line" : `${lines} lines`
        }, ${formatSize(data.length)}`,
        details: { kind: "write", path, created: !existing, lines, bytes: data.length },
      };
    },
  };
}
