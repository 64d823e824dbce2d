/**
 * The agents a session can start: the built-in `explore`, then the agent files of the first
 * root's `.powercode/agents/` and of the user's configuration directory's `agents/`.
 *
 * @module
 */
import {
  parseFrontmatter,
  problemOf,
  projectDir,
  type SetupDir,
  type SetupPlaces,
  userDir,
} from "../setup/mod.ts";
import { type AgentDefinition, agentFromFrontmatter, EXPLORE } from "./agent_definition.ts";

/** The project's directory of agent files, at the first root. */
export const PROJECT_AGENTS_DIR = ".powercode/agents";
/** Most bytes of an agent file read. */
const MAX_AGENT_BYTES = 64 * 1024;

/**
 * The agents of a session, by name: the built-in first, each file's agent after it; a file
 * of the same name as an earlier one replaces it when it is the built-in, else is skipped.
 * Contract: never throws; a file that cannot be read or has a bad field is skipped with one
 * warning line naming the file and the field.
 */
export async function loadAgents(
  places: SetupPlaces,
  warn: (line: string) => void,
): Promise<AgentDefinition[]> {
  const found = new Map<string, AgentDefinition>([[EXPLORE.name, EXPLORE]]);
  const { user } = places;
  const dirs: SetupDir[] = [
    projectDir(places.workspace, PROJECT_AGENTS_DIR),
    ...(user ? [userDir(`${user.path}/agents`, `${user.label}/agents`)] : []),
  ];
  for (const dir of dirs) {
    let files: string[];
    try {
      files = (await dir.list("files")).filter((file) => file.endsWith(".md"));
    } catch (error) {
      warn(`⚠ Agents in ${dir.label} skipped: ${problemOf(error)}`);
      continue;
    }
    for (const file of files) {
      const agent = await readAgent(dir, file, warn);
      if (!agent) continue;
      const first = found.get(agent.name);
      if (first && first.source !== EXPLORE.source) {
        warn(`⚠ Agent ${dir.label}/${file} skipped: ${first.source} defines "${agent.name}"`);
      } else {
        found.set(agent.name, agent);
      }
    }
  }
  return [...found.values()];
}

async function readAgent(
  dir: SetupDir,
  file: string,
  warn: (line: string) => void,
): Promise<AgentDefinition | undefined> {
  const source = `${dir.label}/${file}`;
  try {
    const head = await dir.read(file, MAX_AGENT_BYTES);
    if (head.cut) {
      return void warn(`⚠ Agent ${source} skipped: it is larger than ${MAX_AGENT_BYTES / 1024} KB`);
    }
    const agent = agentFromFrontmatter(parseFrontmatter(head.text), { name: file, source });
    if (typeof agent === "string") return void warn(`⚠ ${agent}`);
    return agent;
  } catch (error) {
    return void warn(`⚠ Agent ${source} skipped: ${problemOf(error)}`);
  }
}
