/**
 * powercode's views and wording: the renderer of agent events, tool and task views,
 * transcripts and tables.
 *
 * @module
 */
export { PlainOutput } from "./plain_output.ts";
export { Renderer } from "./renderer.ts";
export { formatSessionsTable } from "./sessions_table.ts";
export { type TaskOutput } from "./task_view.ts";
export { buildTranscript } from "./transcript.ts";
export { createOutput, type OutputOptions } from "./output.ts";
