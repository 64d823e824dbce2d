/**
 * What a subagent is: its name, the description the parent's model reads, its instructions
 * and the scope it asks for (tools, roots, read-only, profile, steps, budget); the built-in
 * `explore`, and the reading of an agent file's frontmatter.
 *
 * @module
 */
import type { BudgetLimits } from "../core/mod.ts";
import { type Frontmatter, listField, stringField } from "../setup/mod.ts";

/** One agent the `task` tool can start. */
export interface AgentDefinition {
  name: string;
  /** One line for the parent's model: what the agent is for. */
  description: string;
  /** The child's instructions, a section of its system prompt (the file's body). */
  instructions: string;
  /** The only tools the child gets (default: the parent's, or their read-only ones). */
  tools?: readonly string[];
  /** The profile of the provider file the child runs on (default: the parent's current one). */
  profile?: string;
  /** Model calls the child may make (default: the parent's `--max-steps`). */
  maxSteps?: number;
  /** The child's slice of the budget; at most what is left of the parent's in any case. */
  budget?: BudgetLimits;
  /** Directories relative to the first root the child works in (default: the parent's roots). */
  roots?: readonly string[];
  /** Only read-only tools, and bash with every root mounted read-only. */
  readOnly: boolean;
  /** Where it is defined: `built-in`, or the file as the user knows it. */
  source: string;
}

/** The built-in read-only explorer. */
export const EXPLORE: AgentDefinition = {
  name: "explore",
  description: "explores the code read-only (reads files, runs read-only commands, no " +
    "network) and answers with a summary; use it for questions whose answer needs many files",
  instructions: "You are a subagent exploring the workspace for another agent, which reads " +
    "only your final answer. You cannot change files, and nothing you run can. Read what " +
    "the task needs, then answer with a concise, complete report: the facts found, with the " +
    "paths (and lines) where they are.",
  readOnly: true,
  source: "built-in",
};

const NAME = /^[a-z0-9][a-z0-9_-]*$/;
const BUDGET = /^\{\s*(tokens|cost)\s*:\s*([0-9]+(?:\.[0-9]+)?)\s*\}$/;

/**
 * The agent an agent file defines, or the one-line problem naming the field.
 * Contract: pure; never throws. The name defaults to the file's name without `.md`.
 */
export function agentFromFrontmatter(
  { fields, body }: Frontmatter,
  file: { name: string; source: string },
): AgentDefinition | string {
  const where = `Cannot load agent file "${file.source}"`;
  const name = stringField(fields, "name") ?? file.name.replace(/\.md$/, "");
  if (!NAME.test(name)) {
    return `${where}: field "name" "${name}" is not lower-case letters, digits, - and _`;
  }
  const description = stringField(fields, "description");
  if (description === undefined) return `${where}: field "description" is missing`;
  const maxSteps = stringField(fields, "maxSteps");
  if (maxSteps !== undefined && !/^[1-9][0-9]*$/.test(maxSteps)) {
    return `${where}: field "maxSteps" "${maxSteps}" is not a positive integer`;
  }
  const budgetText = stringField(fields, "budget");
  const budget = budgetText === undefined ? undefined : BUDGET.exec(budgetText);
  if (budgetText !== undefined && !budget) {
    return `${where}: field "budget" "${budgetText}" is not { tokens: N } or { cost: N }`;
  }
  const readOnly = stringField(fields, "readOnly");
  if (readOnly !== undefined && readOnly !== "true" && readOnly !== "false") {
    return `${where}: field "readOnly" "${readOnly}" is not true or false`;
  }
  const tools = listField(fields, "tools");
  const profile = stringField(fields, "profile");
  const roots = listField(fields, "roots");
  return {
    name,
    description,
    instructions: body.trim(),
    ...(tools ? { tools } : {}),
    ...(profile !== undefined ? { profile } : {}),
    ...(maxSteps !== undefined ? { maxSteps: Number(maxSteps) } : {}),
    ...(budget ? { budget: { [budget[1] ?? "tokens"]: Number(budget[2]) } } : {}),
    ...(roots ? { roots } : {}),
    readOnly: readOnly === "true",
    source: file.source,
  };
}
