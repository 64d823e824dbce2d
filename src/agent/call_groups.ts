/**
 * How the tool calls of one reply run: alone and in order, except calls of a concurrent tool
 * next to each other, which run together, a few at once, the others waiting for a place.
 *
 * @module
 */
import type { ToolCall } from "../core/mod.ts";

/** Most calls of one group running at once; the others wait for a place. */
export const MAX_CONCURRENT_CALLS = 3;

/**
 * `calls` in order, cut into groups: a run of calls to concurrent tools is one group, every
 * other call a group of its own.
 * Contract: pure; the groups joined are `calls`.
 */
export function groupCalls(
  calls: readonly ToolCall[],
  concurrent: (name: string) => boolean,
): ToolCall[][] {
  const groups: ToolCall[][] = [];
  let open = false;
  for (const call of calls) {
    const together = concurrent(call.name);
    const last = groups.at(-1);
    if (together && open && last) last.push(call);
    else groups.push([call]);
    open = together;
  }
  return groups;
}

/** Places for work running at once: `run` waits until one is free. */
export class Slots {
  #free: number;
  #waiting: (() => void)[] = [];

  /** `size` places. */
  constructor(size: number) {
    this.#free = size;
  }

  /**
   * Runs `work` once a place is free and frees it when `work` settles; `skip` instead when
   * `signal` aborted while it waited.
   */
  async run<T>(work: () => Promise<T>, skip: () => T, signal: AbortSignal): Promise<T> {
    if (this.#free === 0) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#free--;
    try {
      return signal.aborted ? skip() : await work();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    }
  }
}
