/**
 * `cat log | powercode -p "task"`: the piped text sent with the task as its context.
 *
 * @module
 */
import { ConfigError } from "../config/mod.ts";
import {
  type CompactionSettingsInput,
  compactionThreshold,
  estimateTextTokens,
  resolveCompactionSettings,
} from "../context/mod.ts";

/**
 * The task with `piped` attached between `<stdin>` and `</stdin>`; the task alone when
 * nothing (or only whitespace) was piped.
 * Contract: throws a ConfigError when the piped text takes more than half of what fits the
 * window under `settings`, before anything is sent.
 */
export function withPipedInput(
  task: string,
  piped: string,
  settings: CompactionSettingsInput,
): string {
  if (piped.trim() === "") return task;
  const limit = Math.floor(compactionThreshold(resolveCompactionSettings(settings)) / 2);
  const tokens = estimateTextTokens(piped);
  if (tokens > limit) {
    throw new ConfigError(
      `Cannot send the piped input: it is about ${tokens} tokens, more than half of what fits ` +
        `the window (${limit}); pipe less of it (e.g. through tail -n 200)`,
    );
  }
  return `${task}\n\n<stdin>\n${piped.replace(/\n$/, "")}\n</stdin>`;
}
