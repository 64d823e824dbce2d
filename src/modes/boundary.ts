/**
 * The REPL's one error boundary, shared by tasks and slash commands.
 *
 * @module
 */
import type { Renderer } from "../ui/mod.ts";
import type { CommandOutcome } from "../commands/mod.ts";

/** Work behind the boundary: a task or a command, aborted through `signal` by Ctrl+C. */
export type Work = (signal: AbortSignal) => Promise<CommandOutcome> | CommandOutcome;

/**
 * Runs one piece of work at a time. Ctrl+C aborts it ({@linkcode Boundary.abort}); whatever
 * it throws ends it with one `✗` line, and the REPL goes on with the next line.
 */
export class Boundary {
  #renderer: Renderer;
  #running: AbortController | undefined;
  #failed = false;

  /** A boundary whose failures `renderer` shows. */
  constructor(renderer: Renderer) {
    this.#renderer = renderer;
  }

  /** Whether work is running now. */
  get busy(): boolean {
    return this.#running !== undefined;
  }

  /** Whether some work failed: it threw, or a task did not finish. */
  get failed(): boolean {
    return this.#failed;
  }

  /** Marks the run as failed (a task that ended without its answer). */
  fail(): void {
    this.#failed = true;
  }

  /** Aborts the running work, if any. */
  abort(): void {
    this.#running?.abort();
  }

  /**
   * Runs `work`; the status line goes when it ends.
   * Contract: never throws; what `work` throws is shown as one line and counts as a failure.
   */
  async run(work: Work): Promise<CommandOutcome> {
    const running = this.#running = new AbortController();
    let outcome: CommandOutcome = undefined;
    let error: string | undefined;
    try {
      outcome = await work(running.signal);
    } catch (thrown) {
      error = thrown instanceof Error ? thrown.message : String(thrown);
    } finally {
      this.#running = undefined;
      this.#renderer.endTask();
    }
    if (error === undefined) return outcome;
    this.#failed = true;
    this.#renderer.failure(error);
  }
}
