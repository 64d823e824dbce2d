/**
 * The `read_file` tool: UTF-8 text of a workspace file, a page at a time.
 *
 * @module
 */
import { isPositiveInteger } from "../check.ts";
import { readTextFile } from "./text_file.ts";
import type { Params, Tool } from "./tool.ts";
import { PATH_PARAMETER, type Workspace } from "./workspace.ts";
import { MAX_BYTES, MAX_LINES, truncate } from "./truncate.ts";

const READ_FILE_PARAMS = {
  path: PATH_PARAMETER,
  offset: {
    type: "integer",
    description: "1-based line number to start reading at (default 1)",
    optional: true,
  },
  limit: {
    type: "integer",
    description: `Maximum number of lines to return (default and maximum ${MAX_LINES})`,
    optional: true,
  },
} as const satisfies Params;

/**
 * Creates the `read_file` tool for `workspace`.
 * Contract: returns at most 2000 lines / 50 KB per call; when more remains, the
 * content ends with a note naming the `offset` to read on from.
 */
export function createReadFileTool(workspace: Workspace): Tool<typeof READ_FILE_PARAMS> {
  return {
    name: "read_file",
    description: "Read a UTF-8 text file from the workspace. Returns at most " +
      `${MAX_LINES} lines or ${MAX_BYTES / 1024} KB per call; when the file is longer, a note ` +
      "at the end says which offset to pass to read on. Use offset and limit to read one part " +
      "of a large file. Binary files are refused. Read a file before you edit it.",
    params: READ_FILE_PARAMS,
    paths: ({ path }) => ({ read: [path] }),
    async execute({ path, offset = 1, limit = MAX_LINES }) {
      if (!isPositiveInteger(offset) || !isPositiveInteger(limit)) {
        throw new RangeError(
          `Cannot read "${path}": offset and limit must be positive integers, got offset ` +
            `${JSON.stringify(offset)} and limit ${JSON.stringify(limit)}`,
        );
      }
      const text = await readTextFile(workspace, path, "read");
      const lines = text === "" ? [] : text.split(/(?<=\n)/);
      if (lines.length === 0) return { content: "(empty file)", summary: "0 lines" };
      if (offset > lines.length) {
        throw new RangeError(
          `Cannot read "${path}": offset ${offset} is past the end of the file ` +
            `(${lines.length} lines)`,
        );
      }
      const page = truncate(lines.slice(offset - 1).join(""), {
        keep: "head",
        maxLines: Math.min(limit, MAX_LINES),
        firstLine: offset,
      });
      const summary = offset === 1 && !page.truncated
        ? `${lines.length} ${lines.length === 1 ? "line" : "lines"}`
        : `${lineRange(offset, offset + page.keptLines - 1)} of ${lines.length}`;
      if (!page.truncated) return { content: page.text, summary };
      const separator = page.text.endsWith("\n") ? "\n" : "\n\n";
      return { content: `${page.text}${separator}${page.note}`, summary };
    },
  };
}

function lineRange(first: number, last: number): string {
  return first === last ? `line ${first}` : `lines ${first}-${last}`;
}
