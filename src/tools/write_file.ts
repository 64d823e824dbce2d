/**
 * The `write_file` tool: create or replace a workspace file.
 *
 * @module
 */
import { refuseGitControl } from "./git_control.ts";
import { refuseSpecialFile } from "./regular_file.ts";
import { checkContentSize, MAX_EDIT_BYTES, writeFileAtomic } from "./text_file.ts";
import type { Params, Tool } from "./tool.ts";
import { PATH_PARAMETER, type Workspace } from "./workspace.ts";
import { formatSize } from "./truncate.ts";

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
 * paths outside the workspace, directories, FIFOs, sockets, devices and content larger than
 * {@linkcode MAX_EDIT_BYTES}.
 */
export function createWriteFileTool(
  workspace: Workspace,
  options: { allowGitHooks?: boolean } = {},
): Tool<typeof WRITE_FILE_PARAMS> {
  return {
    name: "write_file",
    description: "Create a file or replace its whole content. Missing parent directories are " +
      "created; the write is atomic. Prefer edit_file for changing part of an existing file. " +
      `Content larger than ${formatSize(MAX_EDIT_BYTES)} is refused.`,
    params: WRITE_FILE_PARAMS,
    paths: ({ path }) => ({ modified: [path] }),
    async execute({ path, content }) {
      const data = new TextEncoder().encode(content);
      checkContentSize(data.length, path, "write");
      const absolute = await workspace.resolve(path);
      if (!options.allowGitHooks) refuseGitControl(workspace, absolute, path);
      const previous = await Deno.stat(absolute).catch(() => undefined);
      if (previous?.isDirectory) {
        throw new Deno.errors.IsADirectory(`Cannot write "${path}": it is a directory`);
      }
      if (previous) refuseSpecialFile(previous, path, "write");
      await makeParents(absolute, path);
      await writeFileAtomic(absolute, data);
      const what = previous ? `replaced ${previous.size} bytes` : "new file";
      const lines = content === ""
        ? 0
        : content.split("\n").length - (content.endsWith("\n") ? 1 : 0);
      return {
        content: `Wrote ${data.length} bytes to "${path}" (${what})`,
        summary: `${previous ? "overwritten" : "created"}, ${
          lines === 1 ? "1 line" : `${lines} lines`
        }, ${formatSize(data.length)}`,
      };
    },
  };
}
