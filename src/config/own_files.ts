/**
 * powercode's own files and directories: its configuration, its keys and the state of every
 * project, which nothing in the sandbox may read or write (the README's "Security").
 *
 * @module
 */
import { LAYOUT_STATE, type Locations } from "./locations.ts";
import { MCP_FILE } from "./project.ts";
import { knownProviderFiles } from "./provider_files.ts";

/**
 * Where the installed command keeps its configuration and the state of every project, as
 * the sandbox's probe expands them (the program may not read these variables).
 */
const USER_DIRS = ["$XDG_CONFIG_HOME/powercode", "$XDG_STATE_HOME/powercode"];

/**
 * The paths of this run to hide from commands and servers, some of which may not exist:
 * every known provider file and the `mcp.json` beside the one in use, the state directory,
 * the user's configuration directory and the directory of every project's state (both in
 * either layout), and a workspace layout's `.powercode/` in any root.
 */
export function ownFiles(locations: Locations): string[] {
  const { configDir, stateDir, roots } = locations;
  return [
    ...knownProviderFiles(locations),
    `${configDir}/${MCP_FILE}`,
    stateDir,
    ...USER_DIRS,
    ...roots.map((root) => `${root}/${LAYOUT_STATE}`),
  ];
}
