/**
 * Lines typed while a task runs: steering messages (Enter), delivered to the model after the
 * current step, and follow-ups (Alt+Enter, or a command), run after the task.
 *
 * @module
 */
import type { Submitted } from "../editor/mod.ts";
import { sanitizeLine, truncateWidth } from "../terminal/mod.ts";

/** `steer`: for the running task's next step; `follow`: a task or command of its own after it. */
export type QueueKind = "steer" | "follow";

/** One queued line. */
export interface Queued extends Submitted {
  kind: QueueKind;
}

/**
 * The queue, in the order typed.
 * Contract: a line is taken once (by `takeSteering`, `takeNext` or `takeAll`), in order.
 */
export class InputQueue {
  #items: Queued[] = [];

  /**
   * Queues `entry`. A line starting with `/` or `!` is a command, never a message to the
   * model: it always runs after the task.
   */
  add(entry: Submitted, kind: QueueKind): void {
    const command = /^\s*[/!]/.test(entry.text);
    this.#items.push({ ...entry, kind: command ? "follow" : kind });
  }

  /** Whether nothing is queued. */
  get empty(): boolean {
    return this.#items.length === 0;
  }

  /** Takes the steering messages queued so far, in order; the follow-ups stay. */
  takeSteering(): Submitted[] {
    const steering = this.#items.filter((item) => item.kind === "steer");
    this.#items = this.#items.filter((item) => item.kind !== "steer");
    return steering.map(({ kind: _, ...entry }) => entry);
  }

  /** Takes the first queued line, whatever its kind (after the task: the next to run). */
  takeNext(): Submitted | undefined {
    const item = this.#items.shift();
    if (!item) return undefined;
    const { kind: _, ...entry } = item;
    return entry;
  }

  /** Takes everything queued (to put it back into the input, or to drop it). */
  takeAll(): Queued[] {
    const items = this.#items;
    this.#items = [];
    return items;
  }

  /** One row per queued line, `queued: …`, cut to `width` columns and styled by `style`. */
  rows(width: number, style: (text: string) => string): string[] {
    return this.#items.map((item) => {
      const label = item.kind === "steer" ? "queued" : "queued for after the task";
      const text = sanitizeLine(item.shown ?? item.text);
      return style(truncateWidth(`${label}: ${text}`, width));
    });
  }
}
