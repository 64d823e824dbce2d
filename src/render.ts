/**
 * Renders agent events and task outcomes as terminal lines.
 *
 * @module
 */
import { bold, cyan, dim, green, red, setColorEnabled, yellow } from "@std/fmt/colors";
import type { TaskResult } from "./agent.ts";
import type { AgentEvent } from "./events.ts";
import type { ToolCall } from "./messages.ts";
import { parseToolArguments } from "./tool_arguments.ts";
import type { TranscriptEntry } from "./transcript.ts";

/** Where rendered text goes. */
export type Writer = (text: string) => void;

/** How to render. */
export interface RendererOptions {
  /** Streamed answer text goes here (stdout); everything else to `status`. */
  answer: Writer;
  status: Writer;
  color: boolean;
  /** Show a spinner while waiting for the first token (terminals only). */
  spinner: boolean;
  /** Stream the answer as it arrives; when false the caller prints the final answer. */
  streamAnswer: boolean;
  /** Terminal columns (default 80). */
  columns?: () => number;
}

const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Turns events into terminal output; one instance per program run. */
export class Renderer {
  #options: RendererOptions;
  #spinner: ReturnType<typeof setInterval> | undefined;
  #midLine = false;
  #reasoning = false;
  /** A line that the next output replaces (the retry line on a terminal). */
  #transient = false;

  /** Creates a renderer; enables or disables colours globally for this process. */
  constructor(options: RendererOptions) {
    this.#options = options;
    setColorEnabled(options.color);
  }

  /** Renders one event. */
  render(event: AgentEvent): void {
    if (event.type !== "thinking") this.#stopSpinner();
    if (event.type !== "retry") this.#clearTransient();
    switch (event.type) {
      case "thinking":
        return this.#startSpinner();
      case "text":
        if (!this.#options.streamAnswer) return;
        this.#endReasoning();
        this.#options.answer(event.text);
        this.#midLine = !event.text.endsWith("\n");
        return;
      case "reasoning":
        return this.#showReasoning(event.text);
      case "discard_partial":
        if (!this.#options.streamAnswer) return;
        return this.line(yellow("(partial answer discarded, retrying)"));
      case "tool_start":
        return this.line(`${cyan("●")} ${bold(event.call.name)} ${describeCall(event.call)}`);
      case "tool_end":
        return this.line(
          event.ok ? `  ${green("✓")} ${event.summary}` : `  ${red("✗")} ${event.summary}`,
        );
      case "retry": {
        const wait = `; retrying in ${
          (event.delayMs / 1000).toFixed(1)
        } s (attempt ${event.attempt})`;
        const text = `↻ ${shorten(event.reason, this.width - 2 - wait.length)}${wait}`;
        if (!this.#options.spinner) return this.line(yellow(text));
        // On a terminal the retry line is rewritten in place and goes with the next output.
        this.#endStreamedLine();
        this.#options.status(`\r\x1b[2K${yellow(text)}`);
        this.#transient = true;
        return;
      }
      case "compaction_start":
        return this.line(
          yellow(
            `Context approaching limit (approx ${event.estimatedTokens} / ${event.contextWindow} tokens), compressing earlier messages...`,
          ),
        );
      case "compaction_end":
        return this.line(
          green(
            `✓ Context compression complete: approx ${event.tokensBefore} → ${event.tokensAfter} tokens, ${event.messagesFolded} messages summarized (compactedUntil ${event.compactedUntil})`,
          ),
        );
      case "warning":
        return this.line(yellow(`⚠ ${event.message}`));
      default: {
        const unknown: never = event;
        throw new TypeError(`Cannot render event: ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** Renders how a task ended. */
  finish(result: TaskResult): void {
    this.#stopSpinner();
    this.#clearTransient();
    this.#endReasoning();
    switch (result.status) {
      case "done":
        if (this.#midLine) this.#options.answer("\n");
        this.#midLine = false;
        return;
      case "interrupted":
        return this.line(yellow("⏹ Interrupted; the session is kept, type the next task"));
      case "failed":
      case "step_limit":
        return this.line(red(`✗ ${result.error}`));
      default: {
        const unknown: never = result;
        throw new TypeError(`Cannot render result: ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** Columns of the terminal, 80 when unknown. */
  get width(): number {
    return this.#options.columns?.() ?? 80;
  }

  /**
   * The last line of an interactive run: leaves the cursor on a fresh line (after Ctrl+D or
   * Ctrl+C it is still on the prompt) and says how to continue the session, if it was saved.
   */
  farewell(sessionId: string | undefined, options: { afterPrompt: boolean }): void {
    if (options.afterPrompt) this.#options.status("\n");
    if (sessionId) this.line(dim(`Session ${sessionId} saved: powercode -c continues it`));
  }

  /** Redraws a resumed conversation compactly (see {@linkcode buildTranscript}). */
  transcript(entries: readonly TranscriptEntry[]): void {
    for (const entry of entries) this.line(transcriptLine(entry));
  }

  /** Prints one status line, first ending a streamed line if one is open. */
  line(text: string): void {
    this.#stopSpinner();
    this.#clearTransient();
    this.#endReasoning();
    if (this.#midLine) this.#options.answer("\n");
    this.#midLine = false;
    this.#options.status(`${text}\n`);
  }

  /**
   * Reasoning streams dim, on interactive terminals only, so a reasoning model shows
   * progress; piped or `-p` output carries none of it.
   */
  #showReasoning(text: string): void {
    if (!this.#options.spinner) return;
    if (!this.#reasoning && this.#midLine) this.#options.answer("\n");
    this.#reasoning = true;
    this.#midLine = false;
    this.#options.status(dim(text));
  }

  #endReasoning(): void {
    if (!this.#reasoning) return;
    this.#reasoning = false;
    this.#options.status("\n");
  }

  /** Dims text, for hints. */
  dim(text: string): string {
    return dim(text);
  }

  #startSpinner(): void {
    if (!this.#options.spinner || this.#spinner !== undefined) return;
    let frame = 0;
    const draw = () => {
      this.#options.status(
        `\r${cyan(SPINNER_FRAMES[frame++ % SPINNER_FRAMES.length] ?? "")} ${dim("thinking…")}`,
      );
    };
    if (this.#midLine) this.#options.answer("\n");
    this.#midLine = false;
    draw();
    this.#spinner = setInterval(draw, 80);
  }

  #endStreamedLine(): void {
    if (this.#midLine) this.#options.answer("\n");
    this.#midLine = false;
  }

  #clearTransient(): void {
    if (!this.#transient) return;
    this.#transient = false;
    this.#options.status("\r\x1b[2K");
  }

  #stopSpinner(): void {
    if (this.#spinner === undefined) return;
    clearInterval(this.#spinner);
    this.#spinner = undefined;
    this.#options.status("\r\x1b[2K");
  }
}

/** The first line of `text`, cut to `width` columns (at least 20) with `…`. */
function shorten(text: string, width: number): string {
  const first = text.split("\n")[0] ?? "";
  const limit = Math.max(20, width);
  const chars = Array.from(first);
  return chars.length <= limit && first === text ? text : `${chars.slice(0, limit - 1).join("")}…`;
}

function transcriptLine(entry: TranscriptEntry): string {
  switch (entry.kind) {
    case "summary":
      return dim(`── the ${entry.messages} messages above are summarized for the model ──`);
    case "omitted":
      return dim(`… ${entry.tasks} earlier ${entry.tasks === 1 ? "task" : "tasks"} not shown`);
    case "task":
      return bold(`› ${entry.text.replaceAll("\n", "\n  ")}`);
    case "answer":
      return entry.moreLines === 0
        ? entry.text
        : `${entry.text}\n${dim(`  … ${entry.moreLines} more lines`)}`;
    case "tool":
      return `${cyan("●")} ${bold(entry.call.name)} ${describeCall(entry.call)} ${
        entry.ok ? green("✓") : red("✗")
      }`;
    case "note":
      return dim(`⏹ ${entry.text}`);
    default: {
      const never: never = entry;
      throw new TypeError(`Cannot show transcript entry: ${JSON.stringify(never)}`);
    }
  }
}

/** The short argument shown after a tool's name: its path or the command's first line. */
export function describeCall(call: ToolCall): string {
  const parsed = parseToolArguments(call.arguments);
  if (!parsed.ok) return dim("(malformed arguments)");
  const value = parsed.args.path ?? parsed.args.command;
  if (typeof value !== "string") return "";
  const first = value.split("\n")[0] ?? "";
  return first.length > 80 || value.includes("\n") ? `${first.slice(0, 80)}…` : first;
}
