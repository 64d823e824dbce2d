/**
 * After a switch to a smaller window: compacting as often as it takes for the conversation
 * to fit, before the first request to the new model. One compaction folds only what its
 * summary request can hold in the new window, so a long history takes several.
 *
 * @module
 */
import type { Compactor, RequestOverhead } from "../context/mod.ts";
import type { Session } from "../session/mod.ts";

/** More rounds than this means the window is hopeless; the request step shortens the rest. */
const MAX_ROUNDS = 8;

/**
 * Compacts `session` until its estimate is under the compactor's threshold, or a round
 * folds nothing more, or fails (the request step then shortens the request as usual).
 * Contract: an abort propagates; every round is an ordinary compaction with its lines.
 */
export async function fitWindow(
  compactor: Compactor,
  session: Session,
  overhead: RequestOverhead,
  signal: AbortSignal,
): Promise<void> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const status = compactor.status(session, overhead);
    if (status.estimatedTokens <= status.threshold) return;
    const outcome = await compactor.compact(session, overhead, { signal, reason: "automatic" });
    if (outcome.type !== "compacted") return;
  }
}
