/**
 * powercode's views and wording: the one front end (output, renderer, redaction), the
 * renderer of agent events, tool and task views, transcripts and tables.
 *
 * @module
 */
export { createFrontEnd, type FrontEndOptions, type Watched } from "./front_end.ts";
export { Renderer } from "./renderer.ts";
export type {
  ScriptEvent,
  ScriptOutput,
  ScriptOutputOptions,
  ScriptWatched,
} from "./script_output.ts";
export { describeSpend } from "./spend_view.ts";
export { formatTokens } from "./status_line.ts";
export type { TranscriptEntry } from "./transcript.ts";
export { transcriptLine } from "./transcript_view.ts";

/** The JSON front end of `-p --output-format json|stream-json`, loaded when one is asked for. */
export async function loadScriptOutput(): Promise<
  typeof import("./script_output.ts").ScriptOutput
> {
  return (await import("./script_output.ts")).ScriptOutput;
}

/** The table of recent sessions (`--sessions`, `/sessions`), loaded when one is shown. */
export async function loadSessionsTable(): Promise<
  typeof import("./sessions_table.ts").formatSessionsTable
> {
  return (await import("./sessions_table.ts")).formatSessionsTable;
}

/** The compact redraw of a resumed conversation, loaded when one is redrawn or exported. */
export async function loadTranscript(): Promise<typeof import("./transcript.ts").buildTranscript> {
  return (await import("./transcript.ts")).buildTranscript;
}
