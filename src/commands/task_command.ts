/**
 * Commands that are tasks: a custom command's file, `/skill:NAME`, and running one where the
 * REPL's task runner is not at hand.
 *
 * @module
 */
import { sanitizeLine } from "../terminal/mod.ts";
import {
  type CustomCommand,
  expandArguments,
  readSkillBody,
  type Skill,
  skillText,
} from "../setup/mod.ts";
import type { Command, CommandContext, CommandTask } from "./command.ts";

/** The prefix of the command that sends a skill: `/skill:NAME`. */
export const SKILL_PREFIX = "/skill:";

/** The command `/NAME` of a custom command file. */
export function customCommand(custom: CustomCommand): Command {
  const name = `/${custom.name}`;
  const hint = custom.argumentHint === undefined ? "" : ` ${sanitizeLine(custom.argumentHint)}`;
  const limits = {
    by: name,
    ...(custom.model !== undefined ? { profile: custom.model } : {}),
    ...(custom.allowedTools !== undefined ? { allowedTools: custom.allowedTools } : {}),
  };
  const hasLimits = custom.model !== undefined || custom.allowedTools !== undefined;
  return taskCommand({
    name,
    usage: `${name}${hint}`,
    help: `${sanitizeLine(custom.description ?? "a custom command")} (${custom.source})`,
    source: custom.source,
    task: (_, args) => ({
      text: expandArguments(custom.body, args),
      ...(hasLimits ? { limits } : {}),
    }),
  });
}

/** The command `/skill:NAME [task]` of `skill`: its body, then the task when one is typed. */
export function skillCommand(skill: Skill): Command {
  return taskCommand({
    name: `${SKILL_PREFIX}${skill.name}`,
    usage: `${SKILL_PREFIX}${skill.name} [task]`,
    help: `${sanitizeLine(skill.description)} (${skill.dir.label})`,
    source: skill.dir.label,
    task: async (_, args) => {
      const text = skillText(skill, await readSkillBody(skill));
      const task = args.trim();
      return {
        text: `The user asks you to use this skill${task === "" ? "" : " for the task below"}.` +
          `\n\n${text}${task === "" ? "" : `\n\nTask: ${task}`}`,
      };
    },
  });
}

/**
 * A command that is a task: `run`, for a caller without the REPL's task runner, runs it as a
 * plain task of the agent within its limits.
 */
export function taskCommand(command: Omit<Command, "run"> & Pick<Command, "task">): Command {
  return { ...command, run: (context, args) => runPlain(command, context, args) };
}

async function runPlain(
  command: Pick<Command, "task">,
  { app, screen, signal }: CommandContext,
  args: string,
): Promise<void> {
  const task: CommandTask | undefined = await command.task?.({ app }, args);
  if (!task) return;
  screen.startTask();
  const work = () => app.agent.run(task.text, signal);
  const result = task.limits ? await app.taskScope.during(task.limits, app, work) : await work();
  screen.finish(result);
}
