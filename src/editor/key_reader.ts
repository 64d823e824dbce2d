/**
 * The loop that turns terminal input into keys: a lone ESC waits a moment for the rest of
 * its sequence, then counts as the Esc key.
 *
 * @module
 */
import { type Key, KeyDecoder } from "./keys.ts";

/** How {@linkcode readKeys} reads. */
export interface KeyReaderOptions {
  /** How long a lone ESC waits for the rest of a sequence. */
  escapeTimeoutMs: number;
  /** Checked before each read: reading stops once it says so. */
  stopped: () => boolean;
  /** Receives the keys of each chunk, in order; the next read waits for it. */
  handle: (keys: Key[]) => Promise<void>;
}

/**
 * Reads `input` until it ends (resolves true) or `stopped()` (resolves false).
 * Contract: keys reach `handle` in the order typed, one chunk's keys at a time.
 */
export async function readKeys(
  input: AsyncIterator<Uint8Array>,
  options: KeyReaderOptions,
): Promise<boolean> {
  const decoder = new KeyDecoder();
  let pending: Promise<IteratorResult<Uint8Array>> | undefined;
  while (!options.stopped()) {
    pending ??= input.next();
    const result = decoder.waiting ? await within(pending, options.escapeTimeoutMs) : await pending;
    if (result === undefined) {
      await options.handle(decoder.flush());
      continue;
    }
    pending = undefined;
    if (result.done) return true;
    await options.handle(decoder.feed(result.value));
  }
  return false;
}

/** `promise`'s value, or undefined when it takes longer than `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) =>
    timer = setTimeout(() => resolve(undefined), ms)
  );
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
