/**
 * powercode's views and wording: the one front end (output, renderer, redaction), the
 * renderer of agent events, tool and task views, transcripts and tables.
 *
 * @module
 */
export { createFrontEnd, type FrontEndOptions, type Watched } from "./front_end.ts";
export { Renderer } from "./renderer.ts";
export { formatSessionsTable } from "./sessions_table.ts";
export {
  type ScriptEvent,
  ScriptOutput,
  type ScriptOutputOptions,
  type ScriptWatched,
} from "./script_output.ts";
export { describeSpend } from "./spend_view.ts";
export { formatTokens } from "./status_line.ts";
export { buildTranscript, type TranscriptEntry } from "./transcript.ts";
export { transcriptLine } from "./transcript_view.ts";
