/**
 * The `read_file` tool: UTF-8 text of a workspace file, a page at a time.
 *
 * @module
 */
import { isPositiveInteger } from "../core/mod.ts";
import { readImage } from "./image_page.ts";
import { RegularFile } from "../workspace/mod.ts";
import { decodeText } from "../workspace/mod.ts";
import { type ArgsOf, defineParams, type Params, PATH_PARAMETER } from "./params.ts";
import type { Tool } from "./tool.ts";
import type { Workspace } from "../workspace/mod.ts";
import { formatSize, MAX_BYTES, MAX_LINES, truncate } from "../core/mod.ts";

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
 * content ends with a note naming the `offset` to read on from. A picture comes whole, as
 * the result's `image` (see `readImage`).
 */
export function createReadFileTool(workspace: Workspace): Tool<ArgsOf<typeof READ_FILE_PARAMS>> {
  return {
    name: "read_file",
    effect: "read",
    description: "Read a UTF-8 text file from the workspace. Returns at most " +
      `${MAX_LINES} lines or ${MAX_BYTES / 1024} KB per call; when the file is longer, a note ` +
      "at the end says which offset to pass to read on. Use offset and limit to read one part " +
      "of a large file. A PNG, JPEG, GIF or WebP image is shown to you when the model takes " +
      "images; other binary files are refused. Read a file before you edit it.",
    parameters: defineParams(READ_FILE_PARAMS),
    describe: ({ path }) => path,
    paths: ({ path }) => ({ read: [path] }),
    async execute({ path, offset = 1, limit = MAX_LINES }, { signal }) {
      if (!isPositiveInteger(offset) || !isPositiveInteger(limit)) {
        throw new RangeError(
          `Cannot read "${path}": offset and limit must be positive integers, got offset ` +
            `${JSON.stringify(offset)} and limit ${JSON.stringify(limit)}`,
        );
      }
      await using file = await RegularFile.open(workspace, path, "read");
      if (file.size === 0) {
        const details = { kind: "read", path, firstLine: 0, lastLine: 0, totalLines: 0 } as const;
        return { content: "(empty file)", summary: "0 lines", details };
      }
      const image = await readImage(file, path);
      if (image) return image;
      const { readLinePage } = await import("./line_pages.ts");
      const page = await readLinePage(file, { offset, maxBytes: MAX_BYTES, signal }).catch(
        (error: unknown) => {
          if (!(error instanceof RangeError)) throw error;
          throw new RangeError(`Cannot read "${path}": ${error.message}`);
        },
      );
      if (page.kind === "past_end") {
        throw new RangeError(
          `Cannot read "${path}": offset ${offset} is past the end of the file ` +
            `(${page.totalLines} lines)`,
        );
      }
      const decoded = decodeText(page.bytes, { cut: page.cutLine });
      if (decoded.kind === "binary") {
        throw new TypeError(`Cannot read "${path}": ${decoded.reason}`);
      }
      const available = page.cutLine ? 1 : countLines(decoded.text);
      const { totalLines } = page;
      const result = truncate(decoded.text, {
        keep: "head",
        maxLines: Math.min(limit, MAX_LINES),
        firstLine: offset,
        linesAfter: totalLines === undefined ? "uncounted" : totalLines - (offset - 1) - available,
      });
      const of = totalLines === undefined
        ? ` (${formatSize(file.size)} file)`
        : ` of ${totalLines}`;
      const lastLine = offset + result.keptLines - 1;
      const summary = offset === 1 && !result.truncated
        ? `${totalLines} ${totalLines === 1 ? "line" : "lines"}`
        : `${lineRange(offset, lastLine)}${of}`;
      const details = {
        kind: "read",
        path,
        firstLine: offset,
        lastLine,
        ...(totalLines === undefined ? {} : { totalLines }),
      } as const;
      if (!result.truncated) return { content: result.text, summary, details };
      const separator = result.text.endsWith("\n") ? "\n" : "\n\n";
      return { content: `${result.text}${separator}${result.note}`, summary, details };
    },
  };
}

function countLines(text: string): number {
  let count = text === "" || text.endsWith("\n") ? 0 : 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

function lineRange(first: number, last: number): string {
  return first === last ? `line ${first}` : `lines ${first}-${last}`;
}
