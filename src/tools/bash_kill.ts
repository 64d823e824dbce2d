/**
 * The `bash_kill` tool: ends a background command and every process it started.
 *
 * @module
 */
import type { BackgroundJobs } from "../sandbox/mod.ts";
import { type ArgsOf, defineParams, type Params } from "./params.ts";
import type { Tool } from "./tool.ts";
import { stateSummary } from "./bash_output.ts";

const BASH_KILL_PARAMS = {
  id: { type: "string", description: "The id bash returned when it started the command" },
} as const satisfies Params;

/**
 * Creates the `bash_kill` tool ending jobs of `jobs`.
 * Contract: ends the job's whole process group and waits for it; a job that already ended is
 * reported as it ended; an unknown id is an error result naming the known ones. Its effect is
 * `exec`: it acts on the sandbox's processes only.
 */
export function createBashKillTool(
  jobs: Pick<BackgroundJobs, "kill">,
): Tool<ArgsOf<typeof BASH_KILL_PARAMS>> {
  return {
    name: "bash_kill",
    effect: "exec",
    description: "End a background command (started by bash with background: true) and every " +
      "process it started. What it printed since the last read stays readable with bash_output.",
    parameters: defineParams(BASH_KILL_PARAMS),
    describe: ({ id }) => id,
    async execute({ id }) {
      const job = await jobs.kill(id);
      const content = job.state.kind === "killed"
        ? `Killed background command ${job.id}: ${job.command}`
        : `Background command ${job.id} had already ended (${stateSummary(job.state)}): ` +
          job.command;
      return { content, summary: stateSummary(job.state) };
    },
  };
}
