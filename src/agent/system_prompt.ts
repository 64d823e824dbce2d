/**
 * The system prompt every request starts with.
 *
 * @module
 */

/**
 * Builds the system prompt for a workspace whose real path is `workspaceRoot`, with the
 * project's own instructions (AGENTS.md) at the end when there are some.
 */
export function buildSystemPrompt(workspaceRoot: string, instructions?: string): string {
  const base = [
    "You are powercode, a coding agent working in a terminal for the person you talk with.",
    `Your tools act only inside the workspace directory ${workspaceRoot}; every path is relative to it, and nothing outside it can be read, written or run.`,
    "Read a file before you change it. Prefer edit_file for small changes and write_file for new files.",
    "After changing code, run commands with bash to verify that it works (bash runs sandboxed, without network access).",
    "When the task is done, answer briefly with what you did and what you found.",
    "Answer in the language the user writes in.",
  ].join("\n");
  if (instructions === undefined) return base;
  return `${base}\n\n# Project instructions (AGENTS.md in the workspace)\n\n${instructions}`;
}
