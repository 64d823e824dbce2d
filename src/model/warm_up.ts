/**
 * The parts of Deno's runtime that the first request needs and that Deno loads only when
 * they are first used: fetch's `Response`, `Headers` and `Request` (about 8 ms on a quiet
 * 2-core machine) and the timers the stall watchdog arms (about 9 ms). Loading them costs the
 * same whenever it happens; done while the run waits on another process, it costs no time.
 *
 * @module
 */

/**
 * Loads fetch's classes and the timers now.
 * Contract: synchronous; sends nothing, leaves no timer armed; harmless to call again.
 */
export function warmUpRequests(): void {
  void [Response, Headers, Request];
  clearTimeout(setTimeout(() => {}, 0));
}
