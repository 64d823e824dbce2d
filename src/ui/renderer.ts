/**
 * Renders agent events and task outcomes: tool lines, retries, compaction, errors,
 * the streamed answer, and the status line while a task runs, through a
 * {@link TaskOutput} (a live terminal view or plain writers).
 *
 * @module
 */
import type { TaskResult } from "../agent/mod.ts";
import {
  type AgentEvent,
  type CallDescription,
  type EventSink,
  TODO_FILE,
  type TodoItem,
  type ToolCall,
  type ToolDetails,
} from "../core/mod.ts";
import type { TranscriptEntry } from "./transcript.ts";
import {
  createTheme,
  sanitize,
  sanitizeLine,
  textWidth,
  type Theme,
  truncateWidth,
} from "../terminal/mod.ts";
import { formatContext } from "./status_line.ts";
import type { SpendReport } from "../core/mod.ts";
import { sessionSpent, spendParts } from "./spend_view.ts";
import type { TaskOutput } from "./task_output.ts";
import { compactionEndLine, compactionStartLine } from "./compaction_lines.ts";
import { commandResult, describeCall, editDiff, OutputTail, tailRows } from "./tool_view.ts";
import { transcriptLine } from "./transcript_view.ts";
import { checklistRows, statusMarks, type WorkState } from "./todo_view.ts";

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
  /** The model's name (or the profile's, read at each task), for the status line. */
  model?: string | (() => string);
  /** The context use now, for the status line and the line after each task. */
  context?: () => ContextUse;
  /** What the task and the session spent, for the line after each task. */
  spend?: () => SpendReport | undefined;
  /** Plan mode and the todo list now, for the status line's marks. */
  work?: () => WorkState;
  /**
   * Stands between the events given to {@linkcode Renderer.sink} and `render` (redaction);
   * what it holds back is flushed when a task ends.
   */
  filter?: (render: EventSink) => EventSink & { flush(): void };
}

/** A tool call running now. */
interface Running {
  started: number;
  tail: OutputTail;
  /** What its row says before its last line when several run at once. */
  label: string;
}

/** Turns events into output; one instance per program run. */
export class Renderer {
  #options: RendererOptions;
  #sink: EventSink & { flush(): void };
  #writing = false;
  #theme: Theme;
  /** The tool calls running now, by id (several: a reply's `task` calls). */
  #running = new Map<string, Running>();
  /** The command the user typed with `!`, while it runs. */
  #shell: Running | undefined;
  /** A retry line shown in place on a terminal, removed by the next event. */
  #retrying = false;
  /** Whether the model answered anything in this task (else no request completed). */
  #answered = false;

  /** Creates a renderer. */
  constructor(options: RendererOptions) {
    this.#options = options;
    this.#theme = createTheme(options.color);
    const render = (event: AgentEvent) => this.render(event);
    this.#sink = options.filter?.(render) ?? Object.assign(render, { flush() {} });
  }

  /** The listener to give the agent: events pass the filter, then {@linkcode render}. */
  get sink(): EventSink {
    return this.#sink;
  }

  /** A task (or a command such as /compact) begins: the status line appears. */
  startTask(activity = "thinking"): void {
    const use = this.#options.context?.();
    const { model = "" } = this.#options;
    this.#writing = false;
    this.#answered = false;
    const { work } = this.#options;
    this.#options.output.start({
      model: typeof model === "string" ? model : model(),
      ...(use ? { contextTokens: use.estimatedTokens, contextWindow: use.contextWindow } : {}),
      ...(work ? { marks: () => statusMarks(work()) } : {}),
    }, activity);
  }

  /**
   * A command the user typed with `!` begins: `$ command`, then its output and end come as
   * the events of a tool call (`tool_output`, `tool_end`).
   */
  shellStart(command: string): void {
    this.#shell = { started: Date.now(), tail: new OutputTail(), label: "" };
    this.#options.output.activity("running a command");
    this.line(this.#theme.bold(`$ ${sanitizeLine(command)}`));
  }

  /**
   * A line the user typed, shown where it joins (a queued message, a follow-up, a resumed
   * task): `› text` in bold, word-wrapped under itself.
   */
  userLine(text: string): void {
    this.line(this.#userRows(text).join("\n"));
  }

  /** `› text` in bold, word-wrapped under itself, as rows. */
  #userRows(text: string): string[] {
    const output = this.#options.output;
    const rows = sanitize(text).split("\n").flatMap((line, index) =>
      output.wrap(`${index === 0 ? "›" : " "} ${line}`, "  ")
    );
    return rows.map(this.#theme.bold);
  }

  /** Renders one event. */
  render(event: AgentEvent): void {
    const output = this.#options.output;
    const { yellow, green } = this.#theme;
    if (this.#retrying && event.type !== "retry") {
      this.#retrying = false;
      output.tail([]);
    }
    if (event.type === "text" || event.type === "reasoning" || event.type === "tool_start") {
      this.#answered = true;
    }
    switch (event.type) {
      case "thinking": {
        const use = this.#options.context?.();
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
        output.activity("reasoning");
        return output.reasoning(event.text);
      case "discard_partial":
        this.#writing = false;
        return output.discard();
      case "tool_start": {
        const label = describeCall(event.description, (text) => text).split("\n")[0] ?? "";
        const running = { started: Date.now(), tail: new OutputTail(), label };
        this.#running.set(event.call.id, running);
        output.activity(`running ${sanitizeLine(event.call.name)}`);
        return this.#toolLine(event.call, event.description);
      }
      case "command_start":
        return this.shellStart(event.command);
      case "tool_output": {
        (this.#running.get(event.call.id) ?? this.#shell)?.tail.push(event.text);
        return this.#showTails();
      }
      case "tool_end":
        return this.#toolEnd(event.call, event.isError, event.summary, event.details);
      case "retry": {
        const wait = `; retrying in ${
          (event.delayMs / 1000).toFixed(1)
        } s (attempt ${event.attempt})`;
        const reason = sanitizeLine(event.reason.split("\n")[0] ?? "");
        output.activity("waiting to retry");
        // The retry line stays in place, where the output can, until the next event.
        this.#retrying = true;
        return output.notice((width) => {
          const room = Math.max(20, width - "↻ ".length - wait.length);
          return yellow(truncateWidth(`↻ ${truncateWidth(reason, room)}${wait}`, width));
        });
      }
      case "mcp_waiting": {
        const names = event.servers.map((name) => `"${sanitizeLine(name)}"`).join(", ");
        const plural = event.servers.length === 1 ? "" : "s";
        return output.activity(`waiting for MCP server${plural} ${names}`);
      }
      case "compaction_start":
        output.activity(event.reason === "manual" ? "summarizing earlier messages" : "compacting");
        return this.styled(compactionStartLine(event), yellow);
      case "compaction_end":
        return this.styled(compactionEndLine(event), green);
      case "warning":
        return this.styled(`⚠ ${sanitize(event.message)}`, yellow);
      case "permission": {
        const detail = event.detail === undefined || event.detail === ""
          ? ""
          : ` · ${event.detail}`;
        return this.line(this.dim(`  ${sanitizeLine(`${event.answer}${detail}`)}`));
      }
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

  /**
   * The last lines of an interactive run: what the session spent (`spend`: tokens, and cost
   * when priced), then how to continue the session, if it was saved, with `command`, the way
   * to resume that works where the program was started; each wrapped by word to the width.
   */
  farewell(sessionId: string | undefined, command = "powercode -c", spend?: SpendReport): void {
    const spent = spend && sessionSpent(spend);
    const lines = [
      ...(spent ? [spent] : []),
      ...(sessionId ? [`Session ${sanitizeLine(sessionId)} saved: ${command} continues it`] : []),
    ];
    const rows = lines.flatMap((line) => this.#options.output.wrap(line, "  "));
    if (rows.length > 0) this.line(rows.map((row) => this.dim(row)).join("\n"));
  }

  /**
   * Redraws a resumed conversation compactly (see {@linkcode buildTranscript}); answers are
   * drawn as they were live (rendered markdown on a terminal).
   */
  transcript(entries: readonly TranscriptEntry[]): void {
    const output = this.#options.output;
    for (const entry of entries) {
      if (entry.kind === "task") {
        this.userLine(entry.text);
        continue;
      }
      if (entry.kind !== "answer") {
        this.line(transcriptLine(entry, this.#theme, output.width() - 1));
        continue;
      }
      output.text(`${entry.text}\n`);
      output.stop();
      if (entry.moreLines > 0) this.line(this.dim(`  … ${entry.moreLines} more lines`));
    }
  }

  /** Renders how a task ended; the status line goes. */
  finish(result: TaskResult): void {
    this.endTask();
    switch (result.status) {
      case "done":
        // A reply with no text would leave nothing on screen: say that it came.
        if (this.#options.streamAnswer && result.answer.trim() === "") {
          this.line(this.dim("(empty reply)"));
        }
        break;
      case "interrupted":
        this.line(this.#theme.yellow("⏹ Interrupted; the session is kept, type the next task"));
        break;
      case "failed":
      case "step_limit":
      case "budget":
        this.failure(result.error);
        break;
      default: {
        const unknown: never = result;
        throw new TypeError(`Cannot render result: ${JSON.stringify(unknown)}`);
      }
    }
    // Before any reply the estimate counts a request that was never answered: nothing to say.
    if (result.status === "done" || this.#answered) this.#printContext();
  }

  /**
   * Keeps `rows` (the input line while a task runs) just above the status line, the cursor at
   * `cursor` among them, until the task ends; nothing on a pipe.
   */
  dock(rows: readonly string[], cursor?: { row: number; col: number }): void {
    this.#options.output.dock?.(rows, cursor);
  }

  /** Clears the screen and draws the live rows again (Ctrl+L during a task). */
  clearScreen(): void {
    this.#options.output.clearScreen?.();
  }

  /** Leaves what is live on screen as output, before the terminal is handed over (Ctrl+Z). */
  release(): void {
    this.#options.output.release?.();
  }

  /**
   * Erases what is live (the status line, the input, a command's last lines) before the
   * terminal is handed over for a while (Ctrl+Z); `resume` draws it again.
   */
  suspend(): void {
    this.#options.output.suspend?.();
  }

  /**
   * Takes the terminal back after `suspend` (`fg`): `line`, the line that runs (as typed), as
   * the header (`› line`), then the live rows below it; no header at the prompt.
   */
  resume(line?: string): void {
    this.#options.output.resume?.(line === undefined ? [] : this.#userRows(line));
  }

  /** Ends a task or command without an outcome line: the status line goes. */
  endTask(): void {
    this.#sink.flush();
    this.#retrying = false;
    this.#running.clear();
    this.#shell = undefined;
    this.#options.output.stop();
  }

  /** One `✗ message` line, for work that failed (`message` from outside: it is sanitized). */
  failure(message: string): void {
    this.styled(`✗ ${sanitize(message)}`, this.#theme.red);
  }

  /**
   * Prints one or more lines, first ending a streamed line if one is open.
   * Contract: `text` is powercode's own (outside parts sanitized by the caller).
   */
  line(text: string): void {
    this.#options.output.line(text);
  }

  /**
   * Prints a sentence of powercode's own wording, laid out by the output (a terminal
   * word-wraps it to its width, the rows after each line's first starting with `indent`).
   * Contract: `text` is powercode's own (outside parts sanitized by the caller).
   */
  say(text: string, indent = ""): void {
    this.line(this.#options.output.wrap(text, indent).join("\n"));
  }

  /**
   * Prints a line of powercode's own wording in one colour, laid out by the output (a
   * terminal word-wraps it to its width, since the terminal itself would break words).
   * Contract: `text` is powercode's own (outside parts sanitized by the caller).
   */
  styled(text: string, style: (text: string) => string, indent = "  "): void {
    this.line(this.#options.output.wrap(text, indent).map(style).join("\n"));
  }

  /** `row` cut with `…` to the output's width (a terminal's; a pipe keeps it whole). */
  fit(row: string): string {
    return this.#options.output.fit(row);
  }

  /** `● name argument`, cut by the output where it would wrap mid-word. */
  #toolLine(call: ToolCall, description: CallDescription): void {
    const { cyan, bold, dim } = this.#theme;
    const name = sanitizeLine(call.name);
    const head = `● ${name} `;
    const argument = describeCall(description, (text) => text);
    const shown = this.#options.output.fit(`${head}${argument}`).slice(head.length);
    const malformed = description.kind === "malformed";
    this.line(`${cyan("●")} ${bold(name)} ${malformed ? dim(shown) : shown}`);
  }

  /** Dims text, for hints. */
  dim(text: string): string {
    return this.#theme.dim(text);
  }

  /** Colours text as a question or a warning. */
  yellow(text: string): string {
    return this.#theme.yellow(text);
  }

  /**
   * The live rows under the tool lines: the last output lines of the one call running, or
   * one row per call when several run (its label and last line, a child's current step).
   */
  #showTails(): void {
    const output = this.#options.output;
    const running = [...this.#running.values(), ...this.#shell ? [this.#shell] : []];
    const [only] = running;
    if (running.length <= 1) {
      return output.tail(only ? tailRows(only.tail, output.width(), this.#theme) : []);
    }
    const width = output.width() - 1;
    output.tail(running.map(({ label, tail }) => {
      const row = `  ⋯ ${sanitizeLine(label)}: ${tail.last().at(-1) ?? "starting"}`;
      return this.#theme.dim(truncateWidth(row, width));
    }));
  }

  /** The result line, drawn by the kind of the details: a command's output, an edit's diff. */
  #toolEnd(
    call: ToolCall,
    isError: boolean,
    summary: string,
    details: ToolDetails | undefined,
  ): void {
    const output = this.#options.output;
    const running = this.#running.get(call.id) ?? this.#shell;
    if (!this.#running.delete(call.id)) this.#shell = undefined;
    this.#showTails();
    const { green, red } = this.#theme;
    const mark = isError ? red("✗") : green("✓");
    // A long summary (an error) wraps under itself, not at column 0.
    const rows = output.wrap(`  ✓ ${sanitizeLine(summary)}`, "    ");
    const line = rows.map((row, index) => index === 0 ? `  ${mark}${row.slice(3)}` : row)
      .join("\n");
    if (running && details?.kind === "command") {
      const ms = Date.now() - running.started;
      const result = { ok: !isError, summary, ms, tail: running.tail };
      return output.detail(() => commandResult(result, output.width(), this.#theme), line);
    }
    this.line(line);
    if (!isError && details?.kind === "edit") {
      output.detail(() => editDiff(details, output.width(), this.#theme));
    }
    if (!isError && details?.kind === "checklist") this.#checklist(details.items);
  }

  /** The steps of TODO.md not done, at the start of a new session. */
  unfinishedTodo(items: readonly TodoItem[]): void {
    this.styled(`${TODO_FILE} holds unfinished work from an earlier session:`, this.#theme.yellow);
    this.#checklist(items);
  }

  #checklist(items: readonly TodoItem[]): void {
    this.line(checklistRows(items, this.#options.output.width(), this.#theme).join("\n"));
  }

  #printContext(): void {
    const use = this.#options.context?.();
    if (!use) return;
    const spend = this.#options.spend?.();
    const parts = [
      `context ${formatContext(use.estimatedTokens, use.contextWindow)}`,
      ...(spend ? spendParts(spend) : []),
    ];
    const output = this.#options.output;
    output.detail(() => [this.#theme.dim(fitParts(parts, output.width()))]);
  }
}

/** `parts` joined by ` · `, the last ones left out where the line would be wider than `width`. */
function fitParts(parts: readonly string[], width: number): string {
  for (let count = parts.length; count > 1; count--) {
    const line = parts.slice(0, count).join(" · ");
    if (textWidth(line) <= width) return line;
  }
  return truncateWidth(parts[0] ?? "", width);
}
