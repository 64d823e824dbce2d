/**
 * A deterministic in-process model for agent-loop and compactor tests: it replays a
 * script (the {@link ScriptStep}s the fake server also takes), streams its text through
 * `onText`, and records every request.
 *
 * @module
 */
import {
  ChatError,
  type ChatModel,
  type ChatOptions,
  type ChatReply,
  type ChatRequest,
} from "../../src/model/chat_model.ts";
import type { ToolCall } from "../../src/core/messages.ts";
import type { ScriptStep, Turn } from "./scripts.ts";

/** The reply when the script has run out: a summary-shaped answer. */
const DEFAULT_REPLY = "## User Goal\nread files\n## Next Steps\ncontinue";

/** Replays `steps` in order, one per `complete` call. */
export class ScriptedModel implements ChatModel {
  /** Every request received, in order. */
  readonly requests: ChatRequest[] = [];
  #steps: ScriptStep[];
  #calls = 0;
  #gate: Promise<void> | undefined;

  /** Creates a model that answers with `steps`, then with a default summary text. */
  constructor(steps: ScriptStep[]) {
    this.#steps = [...steps];
  }

  /**
   * Answers the next step; text is streamed through `options.onText` first. While held, the
   * request is recorded at once and answered once released (or aborted).
   */
  async complete(request: ChatRequest, options: ChatOptions = {}): Promise<ChatReply> {
    this.requests.push(request);
    const gate = this.#gate;
    if (gate) {
      const signal = options.signal;
      await new Promise<void>((resolve) => {
        void gate.then(resolve);
        signal?.addEventListener("abort", () => resolve(), { once: true });
      });
    }
    return this.#answer(options);
  }

  /** Holds the requests from now on (a task that takes its time) until the returned call. */
  hold(): () => void {
    let release = () => {};
    this.#gate = new Promise((resolve) => release = resolve);
    return () => {
      this.#gate = undefined;
      release();
    };
  }

  #answer(options: ChatOptions): ChatReply {
    if (options.signal?.aborted) throw new ChatError("aborted", "Interrupted");
    const step = this.#steps.shift() ?? DEFAULT_REPLY;
    if (step instanceof ChatError) throw step;
    const { text = "", toolCalls = [], totalTokens, usage } = this.#turnOf(step);
    if (text !== "") options.onText?.(text);
    return {
      message: { role: "assistant", content: text, toolCalls },
      totalTokens,
      ...(usage ? { usage } : {}),
    };
  }

  /** A text or tool-call reply as a turn; calls without an id get `call_<n>`, as on the wire. */
  #turnOf(step: Exclude<ScriptStep, ChatError>): Turn {
    if (typeof step === "string") return { text: step };
    if (typeof step === "function") {
      throw new TypeError("Cannot play a handler in process: it needs the fake server's request");
    }
    if (!("type" in step)) return step;
    switch (step.type) {
      case "text":
        return { text: step.content };
      case "tool_calls":
        return {
          text: step.content ?? "",
          toolCalls: step.calls.map((spec): ToolCall => ({
            id: spec.id ?? `call_${++this.#calls}`,
            name: spec.name,
            arguments: spec.arguments,
          })),
        };
      default:
        throw new TypeError(
          `Cannot play a "${step.type}" reply in process: it needs the fake server`,
        );
    }
  }
}

/** A tool call with JSON-encoded `args` (or raw text when `args` is a string). */
export function call(id: string, name: string, args: Record<string, unknown> | string): ToolCall {
  return { id, name, arguments: typeof args === "string" ? args : JSON.stringify(args) };
}
