/**
 * Skills in the Agent Skills layout: a folder holding `SKILL.md`, whose frontmatter has a
 * `name` and a `description`, and the files it refers to. Only the names and descriptions
 * go into the system prompt; the body is read when the model or the user asks for it.
 *
 * @module
 */
import { parseFrontmatter, stringField } from "./frontmatter.ts";
import { problemOf, type SetupDir } from "./setup_dir.ts";

/** The folders at the first root skills are found in, in the order a name is looked up. */
export const PROJECT_SKILL_DIRS = [".agents/skills", ".claude/skills", ".powercode/skills"];
/** The file a skill's folder holds. */
export const SKILL_FILE = "SKILL.md";
/** The bytes of a SKILL.md read for its frontmatter, and at most for its body. */
export const MAX_SKILL_BYTES = 64 * 1024;
/** Longer descriptions are cut (the Agent Skills limit). */
const MAX_DESCRIPTION = 1024;
const SKILL_NAME = /^[a-z0-9][a-z0-9_.-]{0,63}$/;

/** One skill as the session lists it. */
export interface Skill {
  name: string;
  description: string;
  /** The directory it was found in. */
  dir: SetupDir;
  /** Its folder's name in that directory. */
  folder: string;
}

/** The path of the skill's `SKILL.md` as the model can name it. */
export function skillPath(skill: Skill): string {
  return skill.dir.pathOf(`${skill.folder}/${SKILL_FILE}`);
}

/**
 * The skills in `dirs`, sorted by name; of two with one name, the one in the earlier
 * directory. Contract: never throws; a skill that cannot be used (no description, a bad
 * name, an unreadable or binary file) and a duplicate name are each left out after one line
 * to `warn`.
 */
export async function loadSkills(
  dirs: readonly SetupDir[],
  warn: (line: string) => void,
): Promise<Skill[]> {
  const found = new Map<string, Skill>();
  for (const dir of dirs) {
    let folders: string[];
    try {
      folders = await dir.list("dirs");
    } catch (error) {
      warn(`⚠ Skills in ${dir.label} skipped: ${problemOf(error)}`);
      continue;
    }
    for (const folder of folders) {
      const skill = await readSkill(dir, folder, warn);
      if (!skill) continue;
      const first = found.get(skill.name);
      if (first) {
        warn(
          `⚠ Skill "${skill.name}" in ${dir.label} skipped: ${first.dir.label} has one of that name`,
        );
      } else {
        found.set(skill.name, skill);
      }
    }
  }
  return [...found.values()].sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

async function readSkill(
  dir: SetupDir,
  folder: string,
  warn: (line: string) => void,
): Promise<Skill | undefined> {
  const where = dir.pathOf(`${folder}/${SKILL_FILE}`);
  let text: string;
  try {
    text = (await dir.read(`${folder}/${SKILL_FILE}`, MAX_SKILL_BYTES)).text;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    warn(`⚠ Skill ${where} skipped: ${problemOf(error)}`);
    return undefined;
  }
  const { fields } = parseFrontmatter(text);
  const name = stringField(fields, "name") ?? folder;
  const description = oneLine(stringField(fields, "description") ?? "");
  if (!SKILL_NAME.test(name)) {
    warn(`⚠ Skill ${where} skipped: its name "${name}" is not lowercase letters, digits and -`);
    return undefined;
  }
  if (description === "") {
    warn(`⚠ Skill ${where} skipped: its frontmatter has no "description"`);
    return undefined;
  }
  return { name, description: description.slice(0, MAX_DESCRIPTION), dir, folder };
}

/**
 * The system prompt's section on `skills`: what they are, how to read one, and one line per
 * skill (name, description, file). Undefined when there is none.
 * Contract: depends only on the list, so a session's prompt stays byte-equal.
 */
export function skillsSection(skills: readonly Skill[]): string | undefined {
  if (skills.length === 0) return undefined;
  return [
    "Skills are instructions for particular kinds of work, each kept in a SKILL.md file. " +
    "When a task matches a skill's description, first read its file with the skill tool " +
    "(a file in the workspace also with read_file), then follow it as far as it serves the " +
    "user's task; the files it mentions are in its folder. Its text is the project's or " +
    "the user's, not powercode's.",
    "",
    ...skills.map((skill) => `- ${skill.name}: ${skill.description} (${skillPath(skill)})`),
  ].join("\n");
}

/**
 * The body of `skill`'s SKILL.md (frontmatter left out), read now, with a note when it is
 * cut. Contract: throws an Error whose message names the file when it cannot be read.
 */
export async function readSkillBody(skill: Skill): Promise<string> {
  const where = skillPath(skill);
  try {
    const head = await skill.dir.read(`${skill.folder}/${SKILL_FILE}`, MAX_SKILL_BYTES);
    const body = parseFrontmatter(head.text).body.trim();
    if (!head.cut) return body;
    return `${body}\n[${where} was cut here: only its first ${MAX_SKILL_BYTES / 1024} KB are read]`;
  } catch (error) {
    throw new Error(`Cannot read skill "${skill.name}" (${where}): ${problemOf(error)}`);
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
