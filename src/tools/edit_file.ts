/**
 * The `edit_file` tool: exact-text replacement in a workspace file.
 *
 * @module
 */
import { editHunk } from "./line_diff.ts";
import { readTextFile, writeFileAtomic } from "../workspace/mod.ts";
import { formatSize } from "../core/mod.ts";
import { type ArgsOf, defineParams, type Params, PATH_PARAMETER } from "./params.ts";
import type { Tool } from "./tool.ts";
import { MAX_EDIT_BYTES, type Workspace } from "../workspace/mod.ts";

/** Most changed line ranges listed in a report. */
const MAX_RANGES = 20;
/** What the diff on screen keeps of the first change: lines a side, context, characters a line. */
const DIFF_LIMITS = { lines: 12, context: 2, lineChars: 4096 };

const EDIT_FILE_PARAMS = {
  path: PATH_PARAMETER,
  old_string: { type: "string", description: "The exact text to replace (not empty)" },
  new_string: { type: "string", description: "The text to put in its place" },
  replace_all: {
    type: "boolean",
    description: "Replace every occurrence instead of requiring exactly one (default false)",
    optional: true,
  },
} as const satisfies Params;

/**
 * Creates the `edit_file` tool for `workspace`.
 * Contract: changes the file only when `old_string` occurs exactly once, or at
 * least once with `replace_all`; otherwise throws a message saying how many
 * times it occurs and what to do. Writes atomically and reports the lines changed.
 * Contract: refuses what {@linkcode Workspace.resolveWrite} refuses (escapes, git's control
 * files, FIFOs, sockets and devices without blocking) and files (before or after the edit)
 * larger than {@linkcode MAX_EDIT_BYTES}.
 * Contract: when the file uses CRLF line endings and `old_string` uses LF, both
 * strings are matched and written with CRLF.
 */
export function createEditFileTool(workspace: Workspace): Tool<ArgsOf<typeof EDIT_FILE_PARAMS>> {
  return {
    name: "edit_file",
    effect: "write",
    description: "Replace exact text in an existing file. old_string must match the file " +
      "exactly, including whitespace and indentation, and must occur exactly once unless " +
      "replace_all is true; include a few surrounding lines to make it unique. Read the file " +
      "first. To create a file or rewrite it completely, use write_file. Files larger than " +
      `${formatSize(MAX_EDIT_BYTES)} are refused.`,
    parameters: defineParams(EDIT_FILE_PARAMS),
    guidance: "Read a file before you change it. Prefer edit_file for small changes and " +
      "write_file for new files.",
    describe: ({ path }) => path,
    paths: ({ path }) => ({ modified: [path] }),
    async execute(args) {
      const { path, old_string: oldText, new_string: newText, replace_all = false } = args;
      if (oldText === "") {
        throw new TypeError(
          `Cannot edit "${path}": old_string is empty; to create or rewrite a file use write_file`,
        );
      }
      if (oldText === newText) {
        throw new TypeError(`Cannot edit "${path}": old_string and new_string are identical`);
      }
      await workspace.resolveWrite(path, { action: "edit" });
      const text = await readTextFile(workspace, path, "edit");
      const [from, to] = matchLineEndings(text, oldText, newText);
      const starts = occurrences(text, from);
      if (starts.length === 0) {
        throw new Error(
          `Cannot edit "${path}": old_string was not found; read the file again and copy the ` +
            "text exactly, including whitespace and indentation",
        );
      }
      if (starts.length > 1 && !replace_all) {
        throw new Error(
          `Cannot edit "${path}": old_string occurs ${starts.length} times; add surrounding ` +
            "lines to make it unique, or set replace_all to replace every occurrence",
        );
      }
      const { result, ranges } = replaceAt(text, starts, from, to);
      const data = new TextEncoder().encode(result);
      const { absolute } = await workspace.resolveWrite(path, {
        action: "edit",
        bytes: data.length,
      });
      await writeFileAtomic(absolute, data);
      const count = starts.length === 1 ? "1 occurrence" : `${starts.length} occurrences`;
      const listed = ranges.slice(0, MAX_RANGES).join(", ") +
        (ranges.length > MAX_RANGES ? ", …" : "");
      const noun = ranges.length === 1 && !ranges[0]?.includes("-") ? "line" : "lines";
      return {
        content: `Edited "${path}": replaced ${count}; changed ${noun} ${listed}`,
        summary: `${noun} ${listed}`,
        details: {
          kind: "edit",
          path,
          occurrences: starts.length,
          ...editHunk(text, { start: starts[0] ?? 0, from, to }, DIFF_LIMITS),
        },
      };
    },
  };
}

function matchLineEndings(text: string, oldText: string, newText: string): [string, string] {
  if (!text.includes("\r\n") || oldText.includes("\r") || !oldText.includes("\n")) {
    return [oldText, newText];
  }
  if (text.includes(oldText)) return [oldText, newText];
  return [oldText.replaceAll("\n", "\r\n"), newText.replaceAll(/\r?\n/g, "\r\n")];
}

/** Start indexes of the non-overlapping occurrences of `needle`. */
function occurrences(text: string, needle: string): number[] {
  const starts: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    starts.push(at);
  }
  return starts;
}

/**
 * Replaces `from` at each start with `to`; returns the new text and, per
 * occurrence, the 1-based line range the new text occupies (`"12"`, `"12-15"`).
 */
function replaceAt(
  text: string,
  starts: number[],
  from: string,
  to: string,
): { result: string; ranges: string[] } {
  const pieces: string[] = [];
  const ranges: string[] = [];
  const span = countNewlines(to.replace(/\n$/, ""));
  let line = 1;
  let previous = 0;
  for (const start of starts) {
    const before = text.slice(previous, start);
    pieces.push(before, to);
    line += countNewlines(before);
    ranges.push(span === 0 ? `${line}` : `${line}-${line + span}`);
    line += countNewlines(to);
    previous = start + from.length;
  }
  pieces.push(text.slice(previous));
  return { result: pieces.join(""), ranges };
}

function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return count;
}
