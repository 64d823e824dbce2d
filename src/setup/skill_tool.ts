/**
 * The `skill` tool: the body of a skill the session lists, read when the model asks for it.
 * It is in the tool set only when some skill was found, so a run without skills sends the
 * same tool definitions as before.
 *
 * @module
 */
import { defineParams, type Tool } from "../tools/mod.ts";
import { readSkillBody, type Skill, skillPath } from "./skills.ts";

const SKILL_PARAMS = {
  name: { type: "string", description: "The skill's name, as the system prompt lists it" },
} as const;

/**
 * Creates the `skill` tool over `skills()`, the list of the current session.
 * Contract: a name the list does not hold fails with the names it does hold; the body is
 * read at each call, so a skill's file edited meanwhile is read as it is now.
 */
export function createSkillTool(skills: () => readonly Skill[]): Tool<{ name: string }> {
  return {
    name: "skill",
    effect: "read",
    description: "Read the instructions of one of the skills the system prompt lists " +
      "(its SKILL.md without the frontmatter), before doing work the skill's description " +
      "matches.",
    parameters: defineParams(SKILL_PARAMS),
    describe: ({ name }) => name,
    async execute({ name }) {
      const list = skills();
      const skill = list.find((each) => each.name === name);
      if (!skill) {
        const known = list.map((each) => each.name).join(", ") || "none";
        throw new RangeError(`Cannot read skill "${name}": no such skill; the skills are ${known}`);
      }
      return { content: skillText(skill, await readSkillBody(skill)), summary: skillPath(skill) };
    },
  };
}

/** A skill's body as the model reads it: where it lies, then its text. */
export function skillText(skill: Skill, body: string): string {
  const folder = skill.dir.pathOf(skill.folder);
  const reach = skill.dir.origin === "project"
    ? `its files are in ${folder}/`
    : `its folder ${folder}/ is the user's own: the tools and bash cannot reach its files`;
  return `Skill "${skill.name}" (${skillPath(skill)}; ${reach}):\n\n${body}`;
}
