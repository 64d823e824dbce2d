/**
 * The launcher's view of the settings files: only the names of `shell.env`, which the
 * program's Deno permissions must grant so that it can pass those variables to commands.
 *
 * @module
 */
import { isObject } from "../core/mod.ts";
import { DENO_FILES, type FileView } from "./file_view.ts";
import { configDirOf, type Project, SETTINGS_FILE } from "./project.ts";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The largest settings file read, as the program reads it: 256 KB. */
const MAX_FILE_BYTES = 256 * 1024;

/**
 * The variable names of `shell.env` in the user's and the project's settings file, sorted.
 * Contract: never throws; a missing, unreadable or bad file names none (the program reports
 * its problems). The project's file counts whether or not the user approved it yet: the
 * program passes its names to commands only once approved, and asks in this very run. Looks at
 * the file system through `files` only.
 */
export async function settingsEnvNames(
  project: Project,
  files: FileView = DENO_FILES,
): Promise<string[]> {
  const settings = [
    `${configDirOf(project.providerFile, files)}/${SETTINGS_FILE}`,
    `${project.roots[0]}/.powercode/${SETTINGS_FILE}`,
  ];
  const names = new Set<string>();
  for (const file of settings) {
    for (const name of await namesIn(file, files)) names.add(name);
  }
  return [...names].sort();
}

async function namesIn(file: string, files: FileView): Promise<string[]> {
  try {
    const info = await files.stat(file);
    if (!info.isFile || info.size > MAX_FILE_BYTES) return [];
    const data: unknown = JSON.parse(await files.readTextFile(file));
    const env = isObject(data) && isObject(data.shell) ? data.shell.env : undefined;
    if (!Array.isArray(env)) return [];
    return env.filter((name): name is string => typeof name === "string" && ENV_NAME.test(name));
  } catch {
    return [];
  }
}
