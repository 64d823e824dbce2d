/**
 * The system prompt every request starts with.
 *
 * @module
 */

/** What a system prompt holds besides powercode's own lines. */
export interface SystemPromptParts {
  /** The tool set's lines on using its tools (`ToolSet.guidance()`), in its order. */
  toolGuidance?: readonly string[];
  /** The project's own instructions (AGENTS.md at the first root), after `sections`. */
  instructions?: string | undefined;
  /** Sections added at the end in order (skills, instruction files), each under its heading. */
  sections?: readonly PromptSection[];
  /** Real paths of further directories the tools may use (`--add-dir`). */
  moreRoots?: readonly string[];
}

/** A section of the system prompt after powercode's own lines. */
export interface PromptSection {
  /** Its heading, without the `# `. */
  heading: string;
  text: string;
}

/**
 * Builds the system prompt for a workspace whose real path is `workspaceRoot`: powercode's
 * lines with the tools' guidance among them, then the sections (skills, instruction files) and
 * the project's own instructions, each under its heading.
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
  const sections = [
    ...parts.sections ?? [],
    ...parts.instructions === undefined ? [] : [{
      heading: "Project instructions (AGENTS.md in the workspace)",
      text: parts.instructions,
    }],
  ];
  return [base, ...sections.map(({ heading, text }) => `# ${heading}\n\n${text}`)].join("\n\n");
}
