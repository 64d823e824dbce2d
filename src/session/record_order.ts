/**
 * Cross-record checks for a session file: each record must make sense after the ones before
 * it, as `Session` applies them. A hand-edited or hostile file that passes the per-line shape
 * checks can still compact past the end of history (every later task would then vanish from
 * requests), claim usage for messages that do not exist, or answer tool calls nobody made.
 *
 * @module
 */
import type { SessionRecord } from "./session.ts";

/**
 * Follows a session's records in order and says what is wrong with the next one.
 * Contract: accepts every sequence `Session` and `Agent` write, including tool calls left
 * unanswered by a crash (the working memory answers them).
 */
export class RecordOrder {
  #messages = 0;
  /** Ids of the latest assistant message's tool calls that have no result yet. */
  #open = new Set<string>();
  /** Per undo not yet redone: how many messages it took out. */
  #undone: number[] = [];

  /** The problem with `record` after the records seen so far, or undefined; then records it. */
  next(record: SessionRecord): string | undefined {
    const problem = this.#check(record);
    if (problem === undefined) this.#apply(record);
    return problem;
  }

  #check(record: SessionRecord): string | undefined {
    switch (record.type) {
      case "message": {
        const { message } = record;
        if (message.role === "assistant") {
          const ids = message.toolCalls.map((call) => call.id);
          const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
          if (repeated !== undefined) return `has tool call id ${JSON.stringify(repeated)} twice`;
        }
        if (message.role === "tool" && !this.#open.has(message.toolCallId)) {
          return `answers tool call ${JSON.stringify(message.toolCallId)}, which no ` +
            "unanswered call of the assistant message before it made";
        }
        return undefined;
      }
      case "usage": {
        const covered = record.usage?.historyLength ?? 0;
        return covered > this.#messages
          ? `has usage covering ${covered} messages, but only ${this.#messages} come before it`
          : undefined;
      }
      case "compaction": {
        const until = record.state.compactedUntil;
        return until > this.#messages
          ? `compacts until message ${until}, but only ${this.#messages} come before it`
          : undefined;
      }
      case "model":
      case "plan":
      case "permission":
      case "request":
      case "task_start":
      case "task_end":
        return undefined;
      case "undo": {
        const { keep } = record;
        if (keep === undefined && record.files === undefined) return "undoes nothing";
        return keep !== undefined && keep > this.#messages
          ? `keeps ${keep} messages, but only ${this.#messages} come before it`
          : undefined;
      }
      case "redo":
        // A redo back to a branch follows the branch's end, not the undo.
        return this.#undone.length === 0 && record.branch !== true
          ? "redoes, but no undo comes before it"
          : undefined;
      default: {
        const unknown: never = record;
        return `has unknown type ${JSON.stringify(unknown)}`;
      }
    }
  }

  #apply(record: SessionRecord): void {
    if (record.type === "task_start") this.#undone = [];
    if (record.type === "undo" || record.type === "redo") return this.#applyUndo(record);
    if (record.type !== "message") return;
    this.#undone = [];
    this.#messages++;
    const { message } = record;
    if (message.role === "tool") this.#open.delete(message.toolCallId);
    else if (message.role === "assistant") {
      this.#open = new Set(message.toolCalls.map((call) => call.id));
    } else this.#open.clear();
  }

  /** An undo or redo moves the end of history; what follows starts a new turn. */
  #applyUndo(record: SessionRecord & { type: "undo" | "redo" }): void {
    this.#open.clear();
    if (record.type === "redo") {
      if (record.branch !== true) this.#messages += this.#undone.pop() ?? 0;
      return;
    }
    const keep = record.keep ?? this.#messages;
    this.#undone.push(this.#messages - keep);
    this.#messages = keep;
  }
}
