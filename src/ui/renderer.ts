/**
 * Renders agent events and task outcomes: tool lines, retries, compaction, errors,
 * the streamed answer, and the status line while a task runs, through a
 * {@link TaskOutput} (a live terminal view or plain writers).
 *
 * @module
 */
import { bold, cyan, dim, green, red, setColorEnabled, yellow } from "@std/fmt/colors";
import type { TaskResult } from "../agent/mod.ts";
import type { AgentEvent, CallDescription, ToolCall, ToolDetails } from "../core/mod.ts";
import type { TranscriptEntry } from "./transcript.ts";
import {
  createTheme,
  sanitize,
  sanitizeLine,
  type Theme,
  truncateWidth,
  wrapText,
} from "../terminal/mod.ts";
import { formatContext } from "./status_line.ts";
import type { TaskOutput } from "./task_view.ts";
import { compactionEndLine, compactionStartLine } from "./compaction_lines.ts";
import { commandResult, describeCall, editDiff, OutputTail, tailRows } from "./tool_view.ts";
import { transcriptLine } from "./transcript_view.ts";

export { describeCall };

/** The context use the status line and the line after each task show. */
export interface ContextUse {
  estimatedTokens: number;
  contextWindow: number;
}

/** How to render. */
export interface RendererOptions {
  output: TaskOutput;
  color: boolean;
  /** Stream the answer as it arrives; when false the caller prints the final answer. */
  streamAnswer: boolean;
  /** The model's name, for the status line. */
  model?: string;
  /**
   * A live terminal: a running command's output, its line count and duration, edit
   * diffs, and after each task a dim line with the context use.
   */
  screen?: boolean;
  /** Called when a task ends, before its last output (releases text held for redaction). */
  beforeEnd?: () => void;
}

/** The tool call running now. */
interface Running {
  started: number;
  tail: OutputTail;
}

/** Turns events into output; one instance per program run. */
export class Renderer {
  #options: RendererOptions;
  #context: (() => ContextUse) | undefined;
  #writing = false;
  #theme: Theme;
  #running: Running | undefined;
  /** A retry line shown in place on a terminal, removed by the next event. */
  #retrying = false;

  /** Creates a renderer; enables or disables colours globally for this process. */
  constructor(options: RendererOptions) {
    this.#options = options;
    this.#theme = createTheme(options.color);
    setColorEnabled(options.color);
  }

  /** Where the status line and the line after each task read the context use. */
  watchContext(context: () => ContextUse): void {
    this.#context = context;
  }

  /** A task (or a command such as /compact) begins: the status line appears. */
  startTask(activity = "thinking"): void {
    const use = this.#context?.();
    this.#writing = false;
    this.#options.output.start({
      model: this.#options.model ?? "",
      ...(use ? { contextTokens: use.estimatedTokens, contextWindow: use.contextWindow } : {}),
    }, activity);
  }

  /** Renders one event. */
  render(event: AgentEvent): void {
    const output = this.#options.output;
    if (this.#retrying && event.type !== "retry") {
      this.#retrying = false;
      output.tail([]);
    }
    switch (event.type) {
      case "thinking": {
        const use = this.#context?.();
        if (use) output.context(use.estimatedTokens);
        this.#writing = false;
        return output.activity("thinking");
      }
      case "text":
        if (!this.#options.streamAnswer) return;
        if (!this.#writing) output.activity("writing");
        this.#writing = true;
        return output.text(event.text);
      case "reasoning":
        // Reasoning shows progress on a live terminal only; pipes and -p carry none of it.
        if (!this.#options.screen) return;
        output.activity("reasoning");
        return output.reasoning(event.text);
      case "discard_partial":
        if (!this.#options.streamAnswer) return;
        return this.line(yellow("(partial answer discarded, retrying)"));
      case "tool_start":
        this.#running = { started: Date.now(), tail: new OutputTail() };
        output.activity(`running ${sanitizeLine(event.call.name)}`);
        return this.#toolLine(event.call, event.description);
      case "tool_output": {
        const tail = this.#running?.tail;
        tail?.push(event.text);
        if (tail && this.#options.screen) output.tail(tailRows(tail, output.width(), this.#theme));
        return;
      }
      case "tool_end":
        return this.#toolEnd(event.isError, event.summary, event.details);
      case "retry": {
        const wait = `; retrying in ${
          (event.delayMs / 1000).toFixed(1)
        } s (attempt ${event.attempt})`;
        const reason = sanitizeLine(event.reason.split("\n")[0] ?? "");
        // On a terminal the row stays one column short of the width (the live region's rule).
        const margin = this.#options.screen ? 1 : 0;
        const room = Math.max(20, this.width - margin - "↻ ".length - wait.length);
        const text = `↻ ${truncateWidth(reason, room)}${wait}`;
        if (!this.#options.screen) return this.line(yellow(text));
        // On a terminal the retry line stays in place until the next event replaces it.
        output.activity("waiting to retry");
        this.#retrying = true;
        return output.tail([yellow(truncateWidth(text, this.width - 1))]);
      }
      case "compaction_start":
        output.activity(event.reason === "manual" ? "summarizing earlier messages" : "compacting");
        return this.#styled(compactionStartLine(event), yellow);
      case "compaction_end":
        return this.#styled(compactionEndLine(event), green);
      case "warning":
        return this.#styled(`⚠ ${sanitize(event.message)}`, yellow);
      default: {
        const unknown: never = event;
        throw new TypeError(`Cannot render event: ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** Columns of the terminal (80 on a pipe). */
  get width(): number {
    return this.#options.output.width();
  }

  /** The last line of an interactive run: how to continue the session, if it was saved. */
  farewell(sessionId: string | undefined): void {
    if (sessionId) {
      this.line(dim(`Session ${sanitizeLine(sessionId)} saved: powercode -c continues it`));
    }
  }

  /** Redraws a resumed conversation compactly (see {@linkcode buildTranscript}). */
  transcript(entries: readonly TranscriptEntry[]): void {
    for (const entry of entries) this.line(transcriptLine(entry));
  }

  /** Renders how a task ended; the status line goes. */
  finish(result: TaskResult): void {
    this.endTask();
    switch (result.status) {
      case "done":
        break;
      case "interrupted":
        this.line(yellow("⏹ Interrupted; the session is kept, type the next task"));
        break;
      case "failed":
      case "step_limit":
        this.#styled(`✗ ${sanitize(result.error)}`, red);
        break;
      default: {
        const unknown: never = result;
        throw new TypeError(`Cannot render result: ${JSON.stringify(unknown)}`);
      }
    }
    this.#printContext();
  }

  /** Ends a task or command without an outcome line: the status line goes. */
  endTask(): void {
    this.#options.beforeEnd?.();
    this.#retrying = false;
    this.#options.output.stop();
  }

  /**
   * Prints one or more lines, first ending a streamed line if one is open.
   * Contract: `text` is powercode's own (outside parts sanitized by the caller).
   */
  line(text: string): void {
    this.#options.output.line(text);
  }

  /**
   * Prints a line of powercode's own wording in one colour: on a terminal word-wrapped to its
   * width (the terminal would break words), on pipes unchanged.
   */
  #styled(text: string, style: (text: string) => string): void {
    if (!this.#options.screen) return this.line(style(text));
    const rows = text.split("\n").flatMap((line) => wrapText(line, this.width - 1));
    this.line(rows.map(style).join("\n"));
  }

  /** `● name argument`: on a terminal cut to its width, so it never wraps mid-word. */
  #toolLine(call: ToolCall, description: CallDescription): void {
    const name = sanitizeLine(call.name);
    if (!this.#options.screen) {
      return this.line(`${cyan("●")} ${bold(name)} ${describeCall(description, dim)}`);
    }
    const head = `● ${name} `;
    const argument = describeCall(description, (text) => text);
    const shown = truncateWidth(`${head}${argument}`, this.width - 1).slice(head.length);
    const malformed = description.kind === "malformed";
    this.line(`${cyan("●")} ${bold(name)} ${malformed ? dim(shown) : shown}`);
  }

  /** Dims text, for hints. */
  dim(text: string): string {
    return dim(text);
  }

  /** The result line, drawn by the kind of the details: a command's output, an edit's diff. */
  #toolEnd(isError: boolean, summary: string, details: ToolDetails | undefined): void {
    const output = this.#options.output;
    const running = this.#running;
    this.#running = undefined;
    output.tail([]);
    if (this.#options.screen && running && details?.kind === "command") {
      const ms = Date.now() - running.started;
      const result = { ok: !isError, summary, ms, tail: running.tail };
      return this.line(commandResult(result, output.width(), this.#theme).join("\n"));
    }
    this.line(`  ${isError ? red("✗") : green("✓")} ${sanitizeLine(summary)}`);
    if (this.#options.screen && !isError && details?.kind === "edit") {
      const diff = editDiff(details, output.width(), this.#theme);
      if (diff.length > 0) this.line(diff.join("\n"));
    }
  }

  #printContext(): void {
    const use = this.#context?.();
    if (!this.#options.screen || !use) return;
    this.line(dim(`context ${formatContext(use.estimatedTokens, use.contextWindow)}`));
  }
}
