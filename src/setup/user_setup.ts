/**
 * Where a run finds the user's setup, and its loading: the commands once per run, the skills
 * and instruction files once per session (so its system prompt stays byte-equal).
 *
 * @module
 */
import type { Workspace } from "../workspace/mod.ts";
import { type CustomCommand, loadCustomCommands, PROJECT_COMMAND_DIRS } from "./custom_commands.ts";
import { type InstructionFile, loadInstructionFiles } from "./instruction_files.ts";
import { projectDir, type SetupDir, userDir } from "./setup_dir.ts";
import { loadSkills, PROJECT_SKILL_DIRS, type Skill } from "./skills.ts";

/** Where the setup lies besides the workspace's first root. */
export interface SetupPlaces {
  workspace: Workspace;
  /** Where powercode was started (absolute), for the instruction files below the first root. */
  cwd?: string;
  /** The user's configuration directory (`skills/`, `commands/`, `AGENTS.md`) and its label. */
  user?: { path: string; label: string };
}

/** What a session starts with: its skills and instruction files. */
export interface SessionSetup {
  skills: Skill[];
  instructions: InstructionFile[];
}

/** Reads the skills and instruction files of a new session. Contract: never throws. */
export async function loadSessionSetup(
  places: SetupPlaces,
  warn: (line: string) => void,
): Promise<SessionSetup> {
  const { workspace, user } = places;
  const instructions = await loadInstructionFiles({
    workspace,
    ...(places.cwd !== undefined ? { cwd: places.cwd } : {}),
    ...(user
      ? { userFile: { path: `${user.path}/AGENTS.md`, label: `${user.label}/AGENTS.md` } }
      : {}),
  }, warn);
  const skills = await loadSkills(dirsOf(places, PROJECT_SKILL_DIRS, "skills"), warn);
  return { skills, instructions };
}

/** Reads the run's custom commands. Contract: never throws. */
export function loadCommands(
  places: SetupPlaces,
  warn: (line: string) => void,
): Promise<CustomCommand[]> {
  return loadCustomCommands(dirsOf(places, PROJECT_COMMAND_DIRS, "commands"), warn);
}

function dirsOf(places: SetupPlaces, project: readonly string[], name: string): SetupDir[] {
  const { user } = places;
  return [
    ...project.map((dir) => projectDir(places.workspace, dir)),
    ...(user ? [userDir(`${user.path}/${name}`, `${user.label}/${name}`)] : []),
  ];
}
