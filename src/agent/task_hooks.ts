/**
 * What the agent asks of the user's hooks during a task; the hooks themselves live in
 * `src/hooks/`, and a run without any gets {@linkcode NO_TASK_HOOKS}.
 *
 * @module
 */

/** What a `UserPromptSubmit` hook decided about a prompt. */
export type PromptVerdict =
  | { kind: "block"; reason: string }
  /** The prompt goes; `context` is text the hooks added for the model (may be empty). */
  | { kind: "go"; context: string[] };

/** Why a session starts: a new run, a resumed session, or `/clear`. */
export type SessionSource = "startup" | "resume" | "clear";

/** The agent's moments the user's hooks can act at. */
export interface TaskHooks {
  /** `UserPromptSubmit`: a prompt is about to be sent. */
  promptSubmitted(prompt: string, signal: AbortSignal): Promise<PromptVerdict>;
  /** `SessionStart`, with a session's first task: text the hooks add for the model. */
  sessionStarted(source: SessionSource, signal: AbortSignal): Promise<string[]>;
  /**
   * `Stop`: the model answered without tool calls. A reason to go on, which the model reads,
   * or undefined to end the task. `again` says a Stop hook already asked for a step.
   */
  stopping(again: boolean, signal: AbortSignal): Promise<string | undefined>;
  /**
   * `PreCompact`, before a compaction: one the user asked for (`/compact`, trigger "manual")
   * or one a request needs to fit the window ("auto").
   */
  compacting(signal: AbortSignal, trigger: "manual" | "auto"): Promise<void>;
}

/** No hooks: every prompt goes, nothing is added, no task is held. */
export const NO_TASK_HOOKS: TaskHooks = {
  promptSubmitted: () => Promise.resolve({ kind: "go", context: [] }),
  sessionStarted: () => Promise.resolve([]),
  stopping: () => Promise.resolve(undefined),
  compacting: () => Promise.resolve(),
};
