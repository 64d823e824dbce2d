/**
 * `/init`: the model writes or improves AGENTS.md from what it reads in the project; while
 * it runs, AGENTS.md at the first root is the only file that may change.
 *
 * @module
 */
import type { Command } from "./command.ts";
import { taskCommand } from "./task_command.ts";

/** The file `/init` writes. */
const FILE = "AGENTS.md";

/** The task `/init` sends; `focus` is what the user typed after it. */
export function initTask(focus: string): string {
  return [
    `Write ${FILE} at the workspace root for the coding agents that will work in this ` +
    `project, or improve it if it exists (read it first, keep what is still right).`,
    "Read the project first: its README, build and package files, CI configuration, the " +
    "layout of its source and tests, and any CLAUDE.md, .cursorrules or " +
    ".github/copilot-instructions.md.",
    `Then write in ${FILE}, briefly and concretely: what the project is; how to build, run, ` +
    "test and lint it (exact commands, also for a single test); how the code is laid out; the " +
    "conventions a change must follow; anything surprising. Leave out what any developer " +
    "knows and what a reader sees at a glance; no generic advice.",
    `During this task ${FILE} is the only file you may change, and bash runs read-only.`,
    ...focus.trim() === "" ? [] : [`The user adds: ${focus.trim()}`],
  ].join("\n\n");
}

/** `/init [focus]`. */
export const initCommand: Command = taskCommand({
  name: "/init",
  usage: "/init [focus]",
  help: `write or improve ${FILE} from the project (only ${FILE} may change meanwhile)`,
  task: (_, args) => ({ text: initTask(args), limits: { by: "/init", onlyWrite: FILE } }),
});
