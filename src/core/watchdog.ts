/**
 * A timer for deadlines that guard a pending read or request, without `setTimeout`: Deno's
 * global `setTimeout` loads its Node timers module on first use, about 10 ms and 1.5 MiB of a
 * `-p` run that needs no other timer. `AbortSignal.timeout` runs on Deno's own timers.
 *
 * @module
 */

/** A deadline that moves back each time there is progress. */
export interface Watchdog {
  /** Progress: the deadline is now `ms` from this moment. */
  touch(): void;
  /** Ends the watch; `onExpire` will not be called. */
  stop(): void;
}

/**
 * Calls `onExpire` once, when `ms` milliseconds pass without a `touch()`.
 * Contract: never calls `onExpire` after `stop()`; holds no timer that keeps the process
 * alive, so it must guard something that does (a request, a read); at most one timer is
 * pending at a time, however often `touch()` is called.
 */
export function watchdog(ms: number, onExpire: () => void): Watchdog {
  let last = performance.now();
  let stopped = false;
  const arm = (wait: number) => {
    AbortSignal.timeout(wait).addEventListener("abort", () => {
      if (stopped) return;
      const quiet = performance.now() - last;
      if (quiet < ms) return arm(ms - quiet);
      stopped = true;
      onExpire();
    }, { once: true });
  };
  arm(ms);
  return {
    touch: () => {
      last = performance.now();
    },
    stop: () => {
      stopped = true;
    },
  };
}
