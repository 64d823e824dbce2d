/**
 * The agent loop: ask the model, run the tools it asks for, repeat until it answers.
 *
 * @module
 */
import { ChatError, finishWarning } from "./chat_model.ts";
import type { ChatModel, ChatReply } from "./chat_model.ts";
import type { Compactor } from "./context/compactor.ts";
import type { Session } from "./context/session.ts";
import type { EventSink } from "./events.ts";
import type { ToolCall } from "./messages.ts";
import type { ToolRegistry } from "./tools/registry.ts";

/** The parts an agent works with. */
export interface AgentOptions {
  model: ChatModel;
  tools: ToolRegistry;
  session: Session;
  compactor: Compactor;
  systemPrompt: string;
  /** Model calls allowed per task. */
  maxSteps: number;
  maxOutputTokens?: number;
  onEvent: EventSink;
}

/** How a task ended. */
export type TaskResult =
  | { status: "done"; answer: string }
  | { status: "failed"; error: string }
  | { status: "interrupted" }
  | { status: "step_limit"; error: string };

/** The text recorded as the result of a tool call that never ran to completion. */
export const INTERRUPTED_RESULT = "Error: interrupted by the user before this tool call finished";

/** Runs tasks against one session. */
export class Agent {
  #options: AgentOptions;

  /** Creates an agent; `options.session` may be replaced later through `session`. */
  constructor(options: AgentOptions) {
    this.#options = options;
  }

  /** The session tasks are appended to. */
  get session(): Session {
    return this.#options.session;
  }

  set session(session: Session) {
    this.#options.session = session;
  }

  /**
   * Runs one task to its end.
   * Contract: never throws for chat failures or interruptions; on return every tool
   * call in history has exactly one result, so the session is valid for the next task.
   */
  async run(task: string, signal: AbortSignal): Promise<TaskResult> {
    const { session, maxSteps } = this.#options;
    session.append({ role: "user", content: task });
    try {
      for (let step = 0; step < maxSteps; step++) {
        const { reply, shrunk } = await this.#ask(signal);
        session.append(reply.message);
        // A shortened request's usage says nothing about the working memory; the last
        // snapshot plus the newer messages still estimates it.
        if (!shrunk) {
          session.recordUsage(
            reply.totalTokens === undefined
              ? undefined
              : { totalTokens: reply.totalTokens, historyLength: session.history.length },
          );
        }
        if (reply.message.toolCalls.length === 0) {
          return { status: "done", answer: reply.message.content };
        }
        await this.#runTools(reply.message.toolCalls, signal);
      }
      return {
        status: "step_limit",
        error:
          `Stopped after ${maxSteps} model calls (--max-steps ${maxSteps}); the task is unfinished, say "continue" to go on`,
      };
    } catch (error) {
      if (signal.aborted) return { status: "interrupted" };
      if (error instanceof ChatError) return { status: "failed", error: error.message };
      throw error;
    }
  }

  /** Builds the working memory (compacting first when needed) and asks the model once. */
  async #ask(signal: AbortSignal): Promise<{ reply: ChatReply; shrunk: boolean }> {
    const { session, compactor, systemPrompt, tools, model, onEvent } = this.#options;
    const overhead = { system: systemPrompt, tools: tools.definitions() };
    const send = async (force: boolean) => {
      const { messages, shrunk } = await compactor.prepareRequest(session, overhead, {
        signal,
        force,
      });
      onEvent({ type: "thinking" });
      const reply = await model.complete({
        ...overhead,
        messages,
        ...(this.#options.maxOutputTokens
          ? { maxOutputTokens: this.#options.maxOutputTokens }
          : {}),
      }, {
        signal,
        onText: (text) => onEvent({ type: "text", text }),
        onReasoning: (text) => onEvent({ type: "reasoning", text }),
        onDiscard: () => onEvent({ type: "discard_partial" }),
        onRetry: (info) => onEvent({ type: "retry", ...info }),
      });
      const warning = finishWarning(reply.finishReason);
      if (warning) onEvent({ type: "warning", message: warning });
      return { reply, shrunk };
    };
    try {
      return await send(false);
    } catch (error) {
      if (!(error instanceof ChatError) || error.kind !== "context_overflow") throw error;
      if (error.partialOutput) onEvent({ type: "discard_partial" });
      onEvent({ type: "warning", message: `${error.message}; compacting and retrying once` });
      try {
        return await send(true);
      } catch (retryError) {
        if (retryError instanceof ChatError && retryError.kind === "context_overflow") {
          throw new ChatError(
            "context_overflow",
            `${retryError.message}; still too long after compaction: lower "contextWindow" in provider.json to the model's real window`,
          );
        }
        throw retryError;
      }
    }
  }

  /** Runs each call in order; after an interruption the remaining calls are answered as interrupted. */
  async #runTools(calls: ToolCall[], signal: AbortSignal): Promise<void> {
    const { session, tools, onEvent } = this.#options;
    for (const call of calls) {
      if (signal.aborted) {
        session.append({ role: "tool", toolCallId: call.id, content: INTERRUPTED_RESULT });
        continue;
      }
      onEvent({ type: "tool_start", call });
      const result = await tools.execute(call, signal);
      const content = signal.aborted ? `${result.content}\n${INTERRUPTED_RESULT}` : result.content;
      session.append({ role: "tool", toolCallId: call.id, content });
      onEvent({
        type: "tool_end",
        call,
        ok: result.ok && !signal.aborted,
        summary: result.summary,
      });
    }
    signal.throwIfAborted();
  }
}
