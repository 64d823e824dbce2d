/**
 * Finds the servers to start: the user's `mcp.json` in powercode's config directory, and a
 * project's `.mcp.json` at the workspace root once the user approved its exact content.
 *
 * @module
 */
import { ConfigError } from "../config/mod.ts";
import { Approvals } from "./approvals.ts";
import { approvalHash, programFiles } from "./program_files.ts";
import { type EnvReader, parseMcpConfig, type ServerConfig } from "./config.ts";

/** The user's config file's name in the config directory. */
export const USER_FILE = "mcp.json";
/** The project's config file's name at the workspace root. */
export const PROJECT_FILE = ".mcp.json";
/** The largest config file read: 256 KB. */
const MAX_FILE_BYTES = 256 * 1024;

/** A project file waiting for the user's approval. */
export interface ProjectReview {
  /** The file, as named to the user. */
  file: string;
  /** Its exact content. */
  text: string;
  servers: readonly ServerConfig[];
  /** The files in the project its servers run (see `programFiles`), covered by the approval. */
  programs: readonly string[];
}

/** Where the config files are and how to decide about a project file. */
export interface LoadOptions {
  /** The directory of powercode's own config (beside the provider file). */
  configDir: string;
  /** The workspace directory (as opened); its `.mcp.json` is the project's. */
  workspaceDir: string;
  /** Where approvals of project files are kept (powercode's state). */
  stateDir: string;
  env: EnvReader;
  /**
   * Asks the user whether to use an unapproved project file, showing its content; without
   * it (`-p`, piped input) such a file is skipped with one warning.
   */
  approve?: (review: ProjectReview) => Promise<boolean>;
  report: (line: string) => void;
}

/**
 * The configured servers: the user's, then the approved project's.
 * Contract: throws `ConfigError` naming the file, each server and field, when the user's
 * file is bad; a bad, unapproved or declined project file is skipped with one warning line.
 */
export async function loadServerConfigs(options: LoadOptions): Promise<ServerConfig[]> {
  const userFile = `${options.configDir}/${USER_FILE}`;
  let user: Uint8Array<ArrayBuffer> | undefined;
  try {
    user = await readConfig(userFile, { followLinks: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`Cannot read MCP config "${userFile}": ${reason}`);
  }
  const servers: ServerConfig[] = [];
  if (user !== undefined) {
    const parsed = parseMcpConfig(new TextDecoder().decode(user), userFile, options.env);
    if (!parsed.ok) {
      throw new ConfigError(`Invalid MCP config "${userFile}": ${parsed.problems.join("; ")}`);
    }
    servers.push(...parsed.servers);
  }
  const project = await projectServers(options);
  for (const server of project) {
    if (servers.some((other) => other.name === server.name)) {
      options.report(
        `⚠ MCP server "${server.name}" of "${server.file}" is skipped: "${userFile}" has one ` +
          "of that name",
      );
    } else servers.push(server);
  }
  return servers;
}

/** The servers of the project file when the user approved its exact content. */
async function projectServers(options: LoadOptions): Promise<ServerConfig[]> {
  const file = `${options.workspaceDir}/${PROJECT_FILE}`;
  let bytes: Uint8Array<ArrayBuffer> | undefined;
  try {
    // Not through a link: the approved bytes are those of the file the agent can write.
    bytes = await readConfig(file, { followLinks: false });
  } catch (error) {
    options.report(`⚠ "${file}" is skipped: ${error instanceof Error ? error.message : error}`);
    return [];
  }
  if (bytes === undefined) return [];
  const text = new TextDecoder().decode(bytes);
  const parsed = parseMcpConfig(text, file, options.env);
  if (!parsed.ok) {
    options.report(`⚠ MCP servers of "${file}" are skipped: ${parsed.problems.join("; ")}`);
    return [];
  }
  const approvals = new Approvals(options.stateDir);
  const key = await Deno.realPath(file);
  // The agent can change a program in the project after the approval: it is covered too.
  const programs = await programFiles(parsed.servers, options.workspaceDir);
  const hash = await approvalHash(bytes, programs);
  if (await approvals.approved(key, hash)) return parsed.servers;
  if (!options.approve) {
    options.report(
      `⚠ MCP servers of "${file}" are skipped: its content is not approved; start powercode ` +
        "on a terminal to review it",
    );
    return [];
  }
  const review = { file, text, servers: parsed.servers, programs: programs.map((p) => p.path) };
  if (!await options.approve(review)) {
    options.report(`MCP servers of "${file}" are skipped this time; you will be asked again`);
    return [];
  }
  await approvals.approve(key, hash);
  return parsed.servers;
}

/**
 * The bytes of the config file at `path`; undefined when there is none.
 * Contract: throws when it is not a regular file (a FIFO is never opened; a symbolic link
 * only with `followLinks`) or larger than 256 KB.
 */
async function readConfig(
  path: string,
  options: { followLinks: boolean },
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await (options.followLinks ? Deno.stat(path) : Deno.lstat(path));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  if (!info.isFile) throw new Error("it is not a regular file");
  if (info.size > MAX_FILE_BYTES) throw new Error("it is larger than 256 KB");
  return await Deno.readFile(path);
}
