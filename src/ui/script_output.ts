/**
 * The front end for scripts (`-p --output-format json|stream-json`): one JSON result object
 * at the end, or one JSON object per line as things happen, ending with that result. It
 * listens to the agent beside the renderer, whose human lines go to stderr.
 *
 * @module
 */
import type { TaskResult } from "../agent/mod.ts";
import type { Redactor } from "../config/mod.ts";
import {
  type AgentEvent,
  type CompactionReason,
  emptyTally,
  type EventSink,
  type Message,
  type SpendReport,
  tallyTokens,
  utf8Length,
} from "../core/mod.ts";
import type { Writer } from "../terminal/mod.ts";

/** What the script output reads from the agent besides its events. */
export interface ScriptWatched {
  subscribe(listener: EventSink): () => void;
  readonly view: { readonly id: string | undefined; readonly history: readonly Message[] };
  spend(): SpendReport | undefined;
}

/** How {@linkcode ScriptOutput} reports. */
export interface ScriptOutputOptions {
  /** `json`: the result object only; `stream-json`: every event, then the result. */
  format: "json" | "stream-json";
  /** Every text is redacted as on screen. */
  redactor: Redactor;
  model: string;
  /** The directories the tools act in. */
  roots: readonly string[];
  /** Where the JSON lines go (stdout). */
  write: Writer;
  /** The clock, in milliseconds (default `performance.now`). */
  now?: () => number;
}

/** One line of stream-json output, or the json result. */
export type ScriptEvent = Record<string, unknown> & { type: string };

/**
 * Writes the run as JSON for scripts.
 * Contract: writes nothing but whole JSON lines; with `stream-json` the first is `start`
 * and the last `result`; every string in them is redacted.
 */
export class ScriptOutput {
  #agent: ScriptWatched;
  #options: ScriptOutputOptions;
  #events: (EventSink & { flush(): void }) | undefined;
  #started = false;
  #startedAt: number;
  #compaction: CompactionReason = "automatic";

  /** Subscribes to `agent` (with `stream-json`); the clock starts now. */
  constructor(agent: ScriptWatched, options: ScriptOutputOptions) {
    this.#agent = agent;
    this.#options = options;
    this.#startedAt = this.#now();
    if (options.format !== "stream-json") return;
    const events = options.redactor.events((event) => this.#event(event), { streamText: true });
    this.#events = events;
    agent.subscribe(events);
  }

  /** The task begins: its duration is counted from here. */
  start(): void {
    this.#startedAt = this.#now();
  }

  /** Writes the result object: the last line of `stream-json`, the only one of `json`. */
  finish(result: TaskResult): void {
    this.#events?.flush();
    const spend = this.#agent.spend();
    const task = spend?.task ?? emptyTally();
    const error = resultError(result);
    this.#write({
      type: "result",
      status: result.status,
      result: result.status === "done" ? result.answer : "",
      ...(error === undefined ? {} : { error }),
      session: this.#agent.view.id ?? null,
      steps: task.steps,
      usage: {
        prompt: task.promptTokens,
        completion: task.completionTokens,
        cached: task.cachedTokens,
        total: tallyTokens(task),
      },
      // Rounded past any price's precision, so sums print without float noise.
      ...(spend?.taskCost === undefined ? {} : { cost: Number(spend.taskCost.toFixed(10)) }),
      "duration_ms": Math.round(this.#now() - this.#startedAt),
    });
  }

  /** One agent event as its stream-json line, if it has one. */
  #event(event: AgentEvent): void {
    switch (event.type) {
      case "text":
        return this.#write({ type: "text_delta", text: event.text });
      case "reasoning":
        return this.#write({ type: "reasoning_delta", text: event.text });
      case "discard_partial":
        return this.#write({ type: "discard" });
      case "tool_start": {
        const { id, name } = event.call;
        return this.#write({ type: "tool_call", id, name, arguments: event.call.arguments });
      }
      case "tool_end":
        return this.#write({
          type: "tool_result",
          id: event.call.id,
          isError: event.isError,
          summary: event.summary,
          bytes: this.#resultBytes(event.call.id),
        });
      case "retry": {
        const { attempt, delayMs, reason } = event;
        return this.#write({ type: "retry", attempt, delayMs, reason });
      }
      case "compaction_start":
        this.#compaction = event.reason;
        return;
      case "compaction_end": {
        const { tokensBefore, tokensAfter, messagesFolded } = event;
        const reason = this.#compaction;
        return this.#write({
          type: "compaction",
          reason,
          tokensBefore,
          tokensAfter,
          messagesFolded,
        });
      }
      case "warning":
        return this.#write({ type: "warning", message: event.message });
      case "permission": {
        const { callId: id, tool, subject, question, answer, detail } = event;
        return this.#write({
          type: "permission",
          id,
          tool,
          subject,
          question,
          answer,
          ...(detail !== undefined ? { detail } : {}),
        });
      }
      case "thinking":
      case "mcp_waiting":
      case "command_start":
      case "tool_output":
        return;
      default: {
        const unknown: never = event;
        throw new TypeError(`Cannot write event: ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** Bytes of the result the model got for call `id` (just appended to history). */
  #resultBytes(id: string): number {
    const history = this.#agent.view.history;
    for (let index = history.length - 1; index >= 0; index--) {
      const message = history[index];
      if (message?.role === "tool" && message.toolCallId === id) {
        return utf8Length(message.content);
      }
    }
    return 0;
  }

  #write(event: ScriptEvent): void {
    const { format, redactor, write } = this.#options;
    if (format === "stream-json" && !this.#started) {
      this.#started = true;
      const start = {
        type: "start",
        session: this.#agent.view.id ?? null,
        model: this.#options.model,
        roots: this.#options.roots,
      };
      write(`${jsonLine(redactor.redactAll(start))}\n`);
    }
    // Streamed text was redacted piece by piece on its way here.
    const shown = event.type === "text_delta" || event.type === "reasoning_delta"
      ? event
      : redactor.redactAll(event);
    write(`${jsonLine(shown)}\n`);
  }

  #now(): number {
    return this.#options.now?.() ?? performance.now();
  }
}

/**
 * What `JSON.stringify` leaves raw although a terminal would act on it or a reader split
 * lines on it: DEL, the C1 controls, the line and paragraph separators and the bidi marks,
 * embeddings, overrides and isolates (it escapes only C0 itself).
 */
const RAW_IN_JSON = /[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `value` as one line of JSON in which every control character is escaped.
 * Contract: the result holds no C0, DEL, C1, line separator or bidi control character;
 * `JSON.parse` gives back the same value (they occur only inside strings, where `\uXXXX`
 * means the same character).
 */
function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(
    RAW_IN_JSON,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The error of a task that did not finish, in one line; undefined when it did. */
function resultError(result: TaskResult): string | undefined {
  switch (result.status) {
    case "done":
      return undefined;
    case "interrupted":
      return "interrupted by the user";
    case "failed":
    case "step_limit":
    case "budget":
      return result.error;
    default: {
      const unknown: never = result;
      throw new TypeError(`Cannot report result: ${JSON.stringify(unknown)}`);
    }
  }
}
