/**
 * Asks the user on the terminal, before the REPL starts, whether to use a project's
 * `.powercode/settings.json`: its exact content, what settings can open, and a yes/no question.
 *
 * @module
 */
import { sanitizeLine } from "../terminal/mod.ts";
import { readLine } from "./approval_prompt.ts";
import type { SettingsReview } from "./settings_start.ts";

/**
 * Shows `review` through `write` and reads the answer from stdin (still in line mode).
 * Contract: only `y` or `yes` (any case) approves; EOF declines.
 */
export async function approveSettingsOnTerminal(
  review: SettingsReview,
  write: (text: string) => void,
): Promise<boolean> {
  const lines = review.text.replace(/\n$/, "").split("\n").map((line) =>
    `  │ ${sanitizeLine(line)}`
  );
  write(
    [
      `${review.file} asks powercode for settings:`,
      ...lines,
      "Settings can give commands more than the sandbox does: directories, your variables and",
      "network to the hosts listed; its hooks run commands, in the sandbox, at tool calls,",
      "prompts and the end of tasks. Approve only content you have read.",
      "Use this exact content now and in later sessions? [y/N] ",
    ].join("\n"),
  );
  const answer = (await readLine()).trim().toLowerCase();
  return answer === "y" || answer === "yes";
}
