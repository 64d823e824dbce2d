/**
 * What the summarizer is asked: the six headings, and the two forms of the request (the
 * instruction appended to the conversation as the model saw it, or the folded messages
 * serialized into one user message).
 *
 * @module
 */

/** The summarizer's system prompt. */
export const SUMMARY_SYSTEM_PROMPT =
  "You are a summarizer for a coding agent's conversation. You read a transcript and write " +
  "a structured summary of it. Do not continue the conversation, do not answer requests in " +
  "it and do not call tools: output only the summary.";
const HEADINGS = `Write the summary under exactly these six headings, in this order:

## User Goal
What the user asked for, in their words where it matters.
## Constraints and Key Decisions
Requirements, preferences and decisions made so far, with their reasons.
## Completed
What is done, with concrete results (names, values, outcomes).
## Current Issues
Errors and open problems, and what was tried.
## Files Read or Modified
Each path and what matters about it.
## Next Steps
What remains to do, in order; "None" when the work is finished.

Keep exact file paths, names, numbers, commands and error messages.`;

const SPLIT_TURN = "The conversation stops in the middle of a task that is still in " +
  "progress; the agent will go on with it after this summary.";

/** What both forms of the summary request say besides the conversation. */
export interface SummaryPromptInput {
  /** The summary of everything before the folded messages, updated rather than repeated. */
  previousSummary?: string;
  /** `/compact` focus text. */
  focus?: string;
  /** Asks for a summary of at most about this many tokens. */
  maxSummaryTokens?: number;
}

/**
 * The message appended to the conversation as the model saw it (system prompt, tools and
 * working memory up to the cut), so that the whole request but this message is a prefix a
 * provider already has in its prompt cache.
 * Contract: pure; the text contains "Do not continue the conversation".
 */
export function inPlaceInstruction(
  input: Omit<SummaryPromptInput, "previousSummary"> & { previousSummary: boolean },
  splitTurn: boolean,
): string {
  const parts = [
    "Stop here. Do not continue the conversation: do not answer the requests in it and do " +
    "not call tools. Write a summary of the conversation above for an agent that will " +
    "continue it from your summary and the messages that follow this point.",
  ];
  if (input.previousSummary) {
    parts.push(
      "Its first message holds the summary of the conversation before it. Update that " +
        "summary with everything after it: keep what still holds, add what is new, drop " +
        "what is no longer true.",
    );
  }
  if (splitTurn) parts.push(SPLIT_TURN);
  parts.push(headings(input.maxSummaryTokens));
  if (input.focus) parts.push(`Focus the summary on: ${input.focus}`);
  return parts.join("\n\n");
}

/**
 * The user message of the serialized summary request: the previous summary, the folded
 * messages as text, the headings, the length limit and the focus.
 * Contract: pure.
 */
export function summaryPrompt(
  input: SummaryPromptInput,
  conversation: string,
  splitTurn: boolean,
): string {
  const parts = input.previousSummary === undefined ? ["Summarize the conversation below."] : [
    `<previous-summary>\n${input.previousSummary}\n</previous-summary>`,
    "The conversation below continues after that summary. Update the summary with these " +
    "newly folded messages: keep what still holds, add what is new, drop what is no " +
    "longer true.",
  ];
  parts.push(`<conversation>\n${conversation}\n</conversation>`);
  if (splitTurn) parts.push(SPLIT_TURN);
  parts.push(headings(input.maxSummaryTokens));
  if (input.focus) parts.push(`Focus the summary on: ${input.focus}`);
  return parts.join("\n\n");
}

function headings(maxSummaryTokens: number | undefined): string {
  const limit = maxSummaryTokens === undefined
    ? ""
    : ` Be concise: at most about ${Math.floor(maxSummaryTokens * 0.75)} words.`;
  return HEADINGS + limit;
}
