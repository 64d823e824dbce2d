/**
 * The `read_file` tool: UTF-8 text of a workspace file, a page at a time.
 *
 * @module
 */
import type { Tool } from "./registry.ts";
import { PATH_PARAMETER, type Workspace } from "./paths.ts";
import { MAX_BYTES, MAX_LINES, truncate } from "./truncate.ts";

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
 * Creates the `read_file` tool for `workspace`.
 * Contract: returns at most 2000 lines / 50 KB per call; when more remains, the
 * content ends with a note naming the `offset` to read on from.
 */
export function createReadFileTool(workspace: Workspace): Tool {
  return {
    name: "read_file",
    description: "Read a UTF-8 text file from the workspace. Returns at most " +
      `${MAX_LINES} lines or ${MAX_BYTES / 1024} KB per call; when the file is longer, a note ` +
      "at the end says which offset to pass to read on. Use offset and limit to read one part " +
      "of a large file. Binary files are refused. Read a file before you edit it.",
    parameters: {
      type: "object",
      properties: {
        path: PATH_PARAMETER,
        offset: {
          type: "integer",
          description: "1-based line number to start reading at (default 1)",
        },
        limit: {
          type: "integer",
          description: `Maximum number of lines to return (default and maximum ${MAX_LINES})`,
        },
      },
      required: ["path"],
    },
    async execute(args) {
      const { path, offset = 1, limit = MAX_LINES } = args;
      if (typeof path !== "string") throw new TypeError(`Cannot read file: path must be a string`);
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

function isPositiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1;
}
