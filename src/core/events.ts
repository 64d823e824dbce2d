/**
 * Everything the agent and the compactor report while they work. The REPL
 * renders these; tests collect them.
 *
 * @module
 */
import type { ToolCall } from "./messages.ts";
import type { CallDescription, ToolDetails } from "./tool_result.ts";

/** Why a compaction runs. */
export type CompactionReason = "automatic" | "manual" | "overflow";

/** Compaction progress, emitted by the Compactor. */
export type CompactionEvent =
  | {
    type: "compaction_start";
    /** `automatic` near the limit, `manual` for /compact, `overflow` after the provider refused. */
    reason: CompactionReason;
    estimatedTokens: number;
    contextWindow: number;
  }
  | {
    type: "compaction_end";
    tokensBefore: number;
    tokensAfter: number;
    compactedUntil: number;
    messagesFolded: number;
  }
  | { type: "warning"; message: string };

/**
 * A question asked before a tool call ran (approval mode or rule) and its answer, or the
 * refusal when nobody could answer; recorded in the session and in stream-json.
 */
export interface PermissionEvent {
  type: "permission";
  callId: string;
  tool: string;
  /** The command line, or the paths written. */
  subject: string;
  /** Why it asked. */
  question: string;
  /** `yes`, `always (user settings)`, `no: reason`, `preview`, `keep`, `revert`, `refused: …`. */
  answer: string;
  /** What was saved, or what a preview changed. */
  detail?: string;
}

/** One thing that happened during a task. */
export type AgentEvent =
  | CompactionEvent
  | { type: "thinking" }
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | { type: "discard_partial" }
  | { type: "tool_start"; call: ToolCall; description: CallDescription }
  /** A command the user typed (`!cmd`) begins; its output and end come as a tool call's. */
  | { type: "command_start"; call: ToolCall; command: string }
  /** Live output of a running tool (a command's), for the terminal only. */
  | { type: "tool_output"; call: ToolCall; text: string }
  | { type: "tool_end"; call: ToolCall; isError: boolean; summary: string; details?: ToolDetails }
  | { type: "retry"; attempt: number; delayMs: number; reason: string }
  /** The first request waits for MCP servers still starting (their tools go with it). */
  | { type: "mcp_waiting"; servers: readonly string[] }
  | PermissionEvent;

/** Receives events as they happen. */
export type EventSink = (event: AgentEvent) => void;

/**
 * One stream of events that listeners join and leave: the agent and its compactor emit
 * into it, the front end and tests listen.
 */
export class EventChannel {
  #listeners = new Set<EventSink>();

  /** Delivers `event` to every listener, in the order they joined. */
  readonly emit: EventSink = (event) => {
    for (const listener of this.#listeners) listener(event);
  };

  /** Adds `listener`; returns the function that removes it again. */
  subscribe(listener: EventSink): () => void {
    const own: EventSink = (event) => listener(event);
    this.#listeners.add(own);
    return () => this.#listeners.delete(own);
  }
}
