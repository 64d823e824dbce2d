/**
 * The one abortable wait of the program (retry backoff).
 *
 * @module
 */

/** Waits `ms` milliseconds; the chat client takes a replacement in tests. */
export type Delay = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * Resolves after `ms` milliseconds.
 * Contract: rejects with `signal.reason` as soon as `signal` aborts, and leaves no timer behind.
 */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
