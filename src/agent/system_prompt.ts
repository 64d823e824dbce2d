/**
 * The system prompt every request starts with.
 *
 * @module
 */

/** What a system prompt holds besides powercode's own lines. */
export interface SystemPromptParts {
  /** The tool set's lines on using its tools (`ToolSet.guidance()`), in its order. */
  toolGuidance?: readonly string[];
  /** The project's own instructions (AGENTS.md). */
  instructions?: string | undefined;
  /** Real paths of further directories the tools may use (`--add-dir`). */
  moreRoots?: readonly string[];
}

/**
 * Builds the system prompt for a workspace whose real path is `workspaceRoot`: powercode's
 * lines with the tools' guidance among them, and the project's own instructions at the end
 * when there are some.
 * Contract: names a tool only through the guidance the tool set gives.
 */
export function buildSystemPrompt(workspaceRoot: string, parts: SystemPromptParts = {}): string {
  const base = [
    "You are powercode, a coding agent working in a terminal for the person you talk with.",
    `Your tools act only inside the workspace directory ${workspaceRoot}; every path is relative to it, and nothing outside it can be read, written or run.`,
    ...(parts.moreRoots?.length
      ? [
        `They also act inside these further directories, named by absolute path: ${
          parts.moreRoots.join(", ")
        }.`,
      ]
      : []),
    ...parts.toolGuidance ?? [],
    "When the task is done, answer briefly with what you did and what you found.",
    "Answer in the language the user writes in.",
  ].join("\n");
  const { instructions } = parts;
  if (instructions === undefined) return base;
  return `${base}\n\n# Project instructions (AGENTS.md in the workspace)\n\n${instructions}`;
}
