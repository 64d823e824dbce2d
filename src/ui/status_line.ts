/**
 * The status line shown while a task runs: spinner, what is happening, elapsed time,
 * how to interrupt, the model and context use, fitted to the terminal width.
 *
 * @module
 */
import { sanitizeLine, textWidth, type Theme, truncateWidth } from "../terminal/mod.ts";

/** What the status line shows. */
export interface StatusState {
  /** What is happening, e.g. "thinking", "running bash", "compacting". */
  activity: string;
  elapsedMs: number;
  model: string;
  /** Estimated tokens in use, and the model's window; omitted when unknown. */
  contextTokens?: number;
  contextWindow?: number;
  /** What the agent works in, after the activity: `plan mode`, `todo 2/5`. */
  marks?: readonly string[];
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const FRAME_MS = 80;

/**
 * One line of at most `width` columns. When space is short, the model goes first,
 * then context use, then the interrupt hint shrinks to `^C`, then the marks; the rest is cut
 * with `…`.
 */
export function formatStatusLine(state: StatusState, width: number, theme: Theme): string {
  const frame = FRAMES[Math.floor(state.elapsedMs / FRAME_MS) % FRAMES.length] ?? "";
  const head = `${frame} ${sanitizeLine(state.activity)}`;
  const elapsed = formatElapsed(state.elapsedMs);
  const context = state.contextTokens !== undefined && state.contextWindow
    ? formatContext(state.contextTokens, state.contextWindow)
    : undefined;
  const model = state.model === "" ? undefined : sanitizeLine(state.model);
  const candidates = [
    [elapsed, "Ctrl+C to interrupt", context, model],
    [elapsed, "Ctrl+C to interrupt", context],
    [elapsed, "Ctrl+C to interrupt"],
    [elapsed, "^C"],
    [elapsed],
  ];
  const allMarks = state.marks ?? [];
  for (const marks of allMarks.length > 0 ? [allMarks, []] : [[]]) {
    for (const parts of candidates) {
      const tail = parts.filter((part) => part !== undefined);
      const plain = [head, ...marks, ...tail].join(" · ");
      if (textWidth(plain) <= width) {
        return `${theme.cyan(frame)} ${sanitizeLine(state.activity)}${
          marks.map((mark) => ` · ${theme.yellow(mark)}`).join("")
        }${theme.dim(tail.map((part) => ` · ${part}`).join(""))}`;
      }
    }
  }
  return truncateWidth(head, width);
}

/** Context use as `12.3k / 128k tokens (9%)`. */
export function formatContext(tokens: number, window: number): string {
  const percent = Math.round((tokens / window) * 100);
  return `${formatTokens(tokens)} / ${formatTokens(window)} tokens (${percent}%)`;
}

/** A token count: `950`, `12.3k`, `128k`, `1.05M`. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return `${Math.round(tokens)}`;
  if (tokens < 1_000_000) {
    const k = tokens / 1000;
    return `${k < 100 ? trim(k.toFixed(1)) : Math.round(k)}k`;
  }
  return `${trim((tokens / 1_000_000).toFixed(2))}M`;
}

/** Elapsed time: `7s`, `1m 05s`, `1h 02m`. */
export function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}

function trim(number: string): string {
  return number.replace(/\.?0+$/, "");
}
