/**
 * The `bash_output` tool: what a background command printed since the last read, and
 * whether it still runs.
 *
 * @module
 */
import type { BackgroundJobs, JobState } from "../sandbox/mod.ts";
import { type ArgsOf, defineParams, type Params } from "./params.ts";
import type { Tool } from "./tool.ts";

const BASH_OUTPUT_PARAMS = {
  id: { type: "string", description: "The id bash returned when it started the command" },
} as const satisfies Params;

/**
 * Creates the `bash_output` tool reading `jobs`.
 * Contract: returns only what the command printed since the previous read (at most the last
 * 50 K characters of it, with a note of what was dropped), then one line with its state;
 * an unknown id is an error result naming the known ones.
 */
export function createBashOutputTool(
  jobs: Pick<BackgroundJobs, "read">,
): Tool<ArgsOf<typeof BASH_OUTPUT_PARAMS>> {
  return {
    name: "bash_output",
    effect: "read",
    description: "Read what a background command (started by bash with background: true) " +
      "printed since the last read, stdout and stderr interleaved, and whether it is still " +
      "running or how it ended.",
    parameters: defineParams(BASH_OUTPUT_PARAMS),
    describe: ({ id }) => id,
    execute({ id }) {
      const output = jobs.read(id);
      const parts: string[] = [];
      if (output.droppedChars > 0) {
        parts.push(`[${output.droppedChars} earlier characters of new output were dropped]`);
      }
      parts.push(output.text === "" ? "(no new output)" : output.text.replace(/\n$/, ""));
      parts.push(...output.gitNotes, stateLine(output.state, output.startedAt));
      return Promise.resolve({
        content: parts.join("\n"),
        summary: stateSummary(output.state),
      });
    },
  };
}

/** How a job stands, in a line for the model and `/ps`. */
export function stateLine(state: JobState, startedAt: number): string {
  switch (state.kind) {
    case "running":
      return `still running (started ${Math.round((Date.now() - startedAt) / 1000)} s ago)`;
    case "exited":
      return `exited with code ${state.code}`;
    case "killed":
      return "killed";
    default: {
      const never: never = state;
      return never;
    }
  }
}

/** How a job stands, in a word or two. */
export function stateSummary(state: JobState): string {
  switch (state.kind) {
    case "running":
      return "running";
    case "exited":
      return `exit ${state.code}`;
    case "killed":
      return "killed";
    default: {
      const never: never = state;
      return never;
    }
  }
}
