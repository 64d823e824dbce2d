/**
 * The `task` tool: hands a piece of work to a subagent, a child agent with its own
 * conversation, tools, scope and budget slice, and returns its final answer as one result.
 *
 * @module
 */
import { defineParams, type Tool, type ToolContext } from "../tools/mod.ts";
import type { AgentDefinition } from "./agent_definition.ts";

/** The tool's name, which its calls in history carry. */
export const TASK_TOOL = "task";

/** How a child's run ended, with what it spent. */
export interface ChildOutcome {
  /** `done`: `text` is its answer; otherwise `text` says why it stopped. */
  status: "done" | "stopped";
  text: string;
  /** Its model calls. */
  steps: number;
  /** Its prompt plus completion tokens, summaries included. */
  tokens: number;
  /** Its session file's id, when it was saved. */
  session?: string;
}

/** What the parent's model asked of a child. */
export interface ChildTask {
  /** A short label of the task (the call's `description`). */
  description: string;
  prompt: string;
}

/**
 * Runs one child of agent `agent` on `task`; `context.onOutput` gets a line at each of its
 * steps.
 * Contract: throws an Error with one line when the agent asks for more than its parent has
 * (nothing is started then); an abort of `context.signal` stops the child.
 */
export type RunChild = (
  agent: AgentDefinition,
  task: ChildTask,
  context: ToolContext,
) => Promise<ChildOutcome>;

const PARAMETERS = defineParams({
  description: { type: "string", description: "A short (3-5 words) label of the task" },
  prompt: {
    type: "string",
    description: "The whole task for the subagent: it sees nothing of this conversation, so " +
      "say what to find or do and what to report",
  },
  agent: { type: "string", optional: true, description: "The agent to run (default: explore)" },
});

type TaskArgs = { description: string; prompt: string; agent?: string };

/**
 * Creates the `task` tool over `agents`, listed in its description (fixed when created).
 * Contract: an unknown agent and a refused scope are error results; a child that stops
 * without an answer (its budget slice, its step limit, a failure) is an error result saying
 * why; the child's steps and tokens end every result, which names the child's session file.
 * Calls next to each other in one reply run at the same time (`concurrent`).
 */
export function createTaskTool(
  agents: readonly AgentDefinition[],
  run: RunChild,
): Tool<TaskArgs> {
  const byName = new Map(agents.map((agent) => [agent.name, agent]));
  const list = agents.map((agent) => `- ${agent.name}: ${agent.description}`).join("\n");
  return {
    name: TASK_TOOL,
    effect: "exec",
    concurrent: true,
    description: "Run a subagent: a child agent with its own conversation, tools and scope " +
      "does the task the prompt gives and answers with one final report, which is this " +
      "call's result. Use it for work that would fill this conversation with file contents. " +
      "The subagent cannot ask the user anything and knows only what the prompt tells it. " +
      "Several task calls in one reply run in parallel. " +
      `Agents:\n${list}`,
    parameters: PARAMETERS,
    describe: ({ description, agent }) => `${agent ?? "explore"} · ${description}`,
    async execute({ description, prompt, agent }, context) {
      const name = agent ?? "explore";
      const definition = byName.get(name);
      if (!definition) {
        throw new Error(
          `Unknown agent "${name}": the agents are ${[...byName.keys()].join(", ")}`,
        );
      }
      const outcome = await run(definition, { description, prompt }, context);
      const spent = `${outcome.steps} step${
        outcome.steps === 1 ? "" : "s"
      }, ${outcome.tokens} tokens`;
      const stopped = outcome.status === "done" ? "" : " · stopped";
      return {
        content: `${outcome.text}\n\n[agent ${name}: ${spent}]`,
        summary: `${name} · ${description} · ${spent}${stopped}`,
        isError: outcome.status !== "done",
        ...(outcome.session !== undefined ? { session: outcome.session } : {}),
      };
    },
  };
}
