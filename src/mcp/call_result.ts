/**
 * What an MCP tool result becomes for the model: its text parts, a one-line note for each
 * image, audio clip or other part that is not text, cut to the limits of command output.
 *
 * @module
 */
import { isObject, isString, utf8Length } from "../core/mod.ts";
import { formatSize, MAX_BYTES, MAX_LINES, type ToolOutput, truncate } from "../tools/mod.ts";

/**
 * The output of a `tools/call` result.
 * Contract: the server's `isError` is kept; text parts and text resources go in whole
 * (joined by newlines), other parts as `[image/png image, 12.3 KB: not shown ...]`; with no
 * content, `structuredContent` as JSON; the text is cut to 2000 lines / 50 KB, keeping its
 * start, with a note. Throws when `result` is not a tool result.
 */
export function toToolOutput(result: unknown): ToolOutput {
  if (!isObject(result) || (result.content !== undefined && !Array.isArray(result.content))) {
    throw new Error("the server's answer is not a tool result");
  }
  const parts = Array.isArray(result.content) ? result.content.map(describePart) : [];
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push(JSON.stringify(result.structuredContent));
  }
  const empty = parts.every((part) => part.trim() === "");
  const text = empty ? "(no output)" : parts.join("\n");
  const cut = truncate(text, { keep: "head" });
  const content = cut.truncated
    ? `${cut.text.replace(/\n$/, "")}\n\n[Result cut: showing the first ${cut.keptLines} of ` +
      `${cut.totalLines} lines (${formatSize(cut.keptBytes)} of ${formatSize(cut.totalBytes)}); ` +
      `results keep at most ${MAX_LINES} lines / ${MAX_BYTES / 1024} KB: ask the tool for less]`
    : text;
  const isError = result.isError === true;
  const lines = text.replace(/\n$/, "").split("\n").length;
  return {
    content,
    summary: isError
      ? firstLine(text)
      : empty
      ? "no output"
      : lines === 1
      ? "1 line"
      : `${lines} lines`,
    isError,
  };
}

/** One content part as text. */
function describePart(part: unknown): string {
  if (!isObject(part)) return "[a content part that is not an object: not shown]";
  switch (part.type) {
    case "text":
      return isString(part.text) ? part.text : "";
    case "image":
    case "audio":
      return `[${mimeOf(part)} ${part.type}${sizeOf(part.data)}: not shown, powercode passes ` +
        "only text to the model]";
    case "resource_link":
      return `[resource link: ${isString(part.uri) ? part.uri : "?"}${
        isString(part.name) ? ` (${part.name})` : ""
      }]`;
    case "resource": {
      const resource = isObject(part.resource) ? part.resource : {};
      if (isString(resource.text)) return resource.text;
      const uri = isString(resource.uri) ? ` ${resource.uri}` : "";
      return `[${mimeOf(resource)} resource${uri}${sizeOf(resource.blob)}: not shown, ` +
        "powercode passes only text to the model]";
    }
    default:
      return `[a ${JSON.stringify(String(part.type))} part: not shown]`;
  }
}

function mimeOf(part: Record<string, unknown>): string {
  return isString(part.mimeType) ? part.mimeType : "binary";
}

/** `, 12.3 KB` for base64 data; empty when there is none. */
function sizeOf(data: unknown): string {
  if (!isString(data)) return "";
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return `, ${formatSize(Math.max(0, Math.floor(data.length * 3 / 4) - padding))}`;
}

function firstLine(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return utf8Length(line) > 120 ? `${line.slice(0, 117)}...` : line;
}
