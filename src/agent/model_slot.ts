/**
 * The model an agent sends to, switchable between the provider file's profiles: the switch
 * recorded in the session, and, after it, compaction in as many rounds as it takes for the
 * history to fit the new window before the first request to it (one compaction folds only
 * what its summary request can hold in that window, so a long history takes several).
 *
 * @module
 */
import type { ChatModel } from "../model/mod.ts";
import type { Pricing } from "../core/mod.ts";
import type { Compactor, RequestOverhead } from "../context/mod.ts";
import type { Session } from "../session/mod.ts";

/** A model requests can go to: its profile's name, the chat model, the compactor for its window. */
export interface ModelSlot {
  name: string;
  model: ChatModel;
  compactor: Compactor;
  /** The profile's prices, when known. */
  pricing?: Pricing;
  /** The profile says the model takes images (`"vision": true`). */
  vision?: boolean;
}

/** More rounds than this means the window is hopeless; the request step shortens the rest. */
const MAX_ROUNDS = 8;

/** The slot in use, and whether a switch still has to make the history fit. */
export class ActiveModel {
  #slot: ModelSlot;
  #defaultProfile: string;
  #fitPending = false;

  /** Starts on `slot`; a session without a model record runs on `defaultProfile`. */
  constructor(slot: ModelSlot, defaultProfile: string) {
    this.#slot = slot;
    this.#defaultProfile = defaultProfile;
  }

  /** The slot requests go to now. */
  get slot(): ModelSlot {
    return this.#slot;
  }

  /** Switches to `slot`; recorded in `session` at once when it has history. */
  use(slot: ModelSlot, session: Session): void {
    this.#slot = slot;
    if (session.history.length > 0) this.record(session);
  }

  /** Records the slot's profile in `session` when it is not the one the session runs on. */
  record(session: Session): void {
    const current = session.profile ?? this.#defaultProfile;
    if (current === this.#slot.name) return;
    session.recordProfile(this.#slot.name);
    this.#fitPending = true;
  }

  /**
   * After a recorded switch, compacts `session` until its estimate is under the threshold, a
   * round folds nothing more, or one fails (the request step then shortens as usual).
   * Contract: an abort propagates (and the fit is tried again before the next request).
   */
  async fit(session: Session, overhead: RequestOverhead, signal: AbortSignal): Promise<void> {
    if (!this.#fitPending) return;
    const { compactor } = this.#slot;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const status = compactor.status(session, overhead);
      if (status.estimatedTokens <= status.threshold) break;
      const outcome = await compactor.compact(session, overhead, { signal, reason: "automatic" });
      if (outcome.type !== "compacted") break;
    }
    this.#fitPending = false;
  }
}
