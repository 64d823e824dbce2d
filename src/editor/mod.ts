/**
 * The line editor at the prompt: keys, edit buffer, history, completion, and the line
 * input that uses it on a terminal or reads piped lines.
 *
 * @module
 */
export type { BusyHandlers, PaintedInput, Submitted } from "./busy_input.ts";
export { createCompleter, type DirEntry } from "./completion.ts";
export { type LineInput, openLineInput } from "./line_input.ts";
