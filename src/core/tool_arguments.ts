/**
 * The one parser of a tool call's JSON argument text, shared by the tool registry,
 * the terminal's tool lines and the compaction transcript.
 *
 * @module
 */
import { parseJsonObject } from "./check.ts";

/** Parsed arguments, or why the text is not an arguments object. */
export type ParsedArguments =
  | { ok: true; args: Record<string, unknown> }
  | { ok: false; error: string };

/**
 * Parses the raw `arguments` text the model wrote; empty text means no arguments.
 * Contract: never throws; the error quotes at most 200 characters of the text.
 */
export function parseToolArguments(text: string): ParsedArguments {
  const parsed = parseJsonObject(text.trim() === "" ? "{}" : text);
  if (parsed.ok) return { ok: true, args: parsed.value };
  if (parsed.reason === "not a JSON object") {
    return { ok: false, error: "arguments must be a JSON object" };
  }
  return {
    ok: false,
    error: `arguments are not valid JSON: ${JSON.stringify(text.slice(0, 200))}`,
  };
}
