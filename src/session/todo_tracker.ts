/**
 * The session's todo list: the list of the latest call of the todo tool that succeeded,
 * followed as messages are appended (and replayed when a session is resumed).
 *
 * @module
 */
import type { Message, TodoItem, ToolCall } from "../core/mod.ts";

/** The list a tool call sets, when it is a call of the todo tool with a list it takes. */
export type TodoOf = (call: ToolCall) => TodoItem[] | undefined;

/** Follows history for the current todo list. */
export class TodoTracker {
  #todoOf: TodoOf | undefined;
  /** The lists of the latest assistant message's todo calls, by call id, until answered. */
  #pending = new Map<string, TodoItem[]>();
  #items: TodoItem[] | undefined;

  /** A tracker that reads lists from calls with `todoOf` (without it, there is never a list). */
  constructor(todoOf: TodoOf | undefined) {
    this.#todoOf = todoOf;
  }

  /** The list of the latest todo call that succeeded; undefined before the first. */
  get items(): readonly TodoItem[] | undefined {
    return this.#items;
  }

  /** Follows one message appended to history. */
  follow(message: Message): void {
    if (message.role === "assistant") {
      this.#pending.clear();
      for (const call of message.toolCalls) {
        const items = this.#todoOf?.(call);
        if (items) this.#pending.set(call.id, items);
      }
    } else if (message.role === "tool") {
      const items = this.#pending.get(message.toolCallId);
      if (items && !message.isError) this.#items = items;
      this.#pending.delete(message.toolCallId);
    }
  }
}
