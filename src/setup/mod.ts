/**
 * The setup a user brings: skills, custom commands and instruction files, found at the
 * first root and in the user's configuration directory. Their text reaches the model as
 * data; nothing in them runs outside the sandbox.
 *
 * @module
 */
export { type CustomCommand, expandArguments } from "./custom_commands.ts";
export { type InstructionFile, instructionSections, loadedLine } from "./instruction_files.ts";
export { createSkillTool, skillText } from "./skill_tool.ts";
export { readSkillBody, type Skill, skillPath, skillsSection } from "./skills.ts";
export { problemOf, projectDir, type SetupDir, type SetupOrigin, userDir } from "./setup_dir.ts";
export { type Frontmatter, listField, parseFrontmatter, stringField } from "./frontmatter.ts";
export {
  loadCommands,
  loadSessionSetup,
  type SessionSetup,
  type SetupPlaces,
} from "./user_setup.ts";
