/**
 * Plan mode as the agent keeps it: the switch the tools enforce, its record in the session
 * (so `--continue` restores it), and the note that tells the model, sent with the next task.
 * The system prompt and the tool definitions never change with it, so the provider's prompt
 * cache holds across a switch.
 *
 * @module
 */
import type { Message } from "../core/mod.ts";
import type { Session } from "../session/mod.ts";
import { planOffNote, planOnNote } from "./task_notes.ts";

/** Plan mode's switch as the tools enforce it (the tools' `PlanGuard`). */
export interface PlanSwitch {
  readonly on: boolean;
  set(on: boolean): void;
}

/** A switch that only remembers, for an agent whose tools enforce nothing. */
export function plainSwitch(): PlanSwitch {
  let on = false;
  return {
    get on() {
      return on;
    },
    set(value) {
      on = value;
    },
  };
}

/** The user's plan mode and what the model of a session was told of it. */
export class PlanMode {
  #switch: PlanSwitch;
  /** Whether the model was last told plan mode is on (by the latest plan note in history). */
  #told: boolean;

  /** Plan mode through `planSwitch`, in `session` (whose notes say what the model knows). */
  constructor(planSwitch: PlanSwitch, session: Session) {
    this.#switch = planSwitch;
    this.#told = toldOn(session.history);
  }

  /** Whether plan mode is on. */
  get on(): boolean {
    return this.#switch.on;
  }

  /**
   * Turns plan mode on or off at once; recorded in `session` now when it has history, else
   * with its first task (so a run that does nothing leaves no session file).
   */
  set(on: boolean, session: Session): void {
    this.#switch.set(on);
    if (session.history.length > 0) this.#record(session);
  }

  /**
   * The note for a task about to start in `session`: plan mode is on, or went off, when the
   * model was last told otherwise; none when it knows. Records the mode in the session.
   */
  noteForTask(session: Session): string | undefined {
    this.#record(session);
    if (this.#told === this.on) return undefined;
    this.#told = this.on;
    return this.on ? planOnNote() : planOffNote();
  }

  /** Goes on in `session` (a new one after `/clear`), whose model was told what its notes say. */
  follow(session: Session): void {
    this.#told = toldOn(session.history);
  }

  #record(session: Session): void {
    if (session.planMode !== this.on) session.recordPlanMode(this.on);
  }
}

/** Whether the latest plan note in `history` says plan mode is on; false without one. */
function toldOn(history: readonly Message[]): boolean {
  const on = planOnNote();
  const off = planOffNote();
  for (let index = history.length - 1; index >= 0; index--) {
    const message = history[index];
    if (message?.role !== "user") continue;
    if (message.content === on) return true;
    if (message.content === off) return false;
  }
  return false;
}
