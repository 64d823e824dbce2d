/**
 * Project instructions: an `AGENTS.md` at the workspace root (the convention Codex, pi,
 * opencode and others share), added to the system prompt.
 *
 * @module
 */
import { readTextFile, type Workspace } from "../tools/mod.ts";
import { utf8Length } from "../core/mod.ts";

/** The file read, relative to the workspace root. */
export const INSTRUCTIONS_FILE = "AGENTS.md";
/** Larger files are cut to this many bytes, with a note. */
export const MAX_INSTRUCTIONS_BYTES = 32 * 1024;

/** The instructions as added to the system prompt. */
export interface ProjectInstructions {
  text: string;
  /** Size of the file on disk. */
  bytes: number;
  truncated: boolean;
}

/**
 * Reads `AGENTS.md` from the workspace root.
 * Contract: undefined when there is none; a file that is not readable text (binary, a
 * directory, outside the workspace through a symlink) throws an Error naming it.
 */
export async function loadProjectInstructions(
  workspace: Workspace,
): Promise<ProjectInstructions | undefined> {
  let text: string;
  try {
    text = await readTextFile(workspace, INSTRUCTIONS_FILE, "read project instructions");
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  const bytes = utf8Length(text);
  if (bytes <= MAX_INSTRUCTIONS_BYTES) return { text, bytes, truncated: false };
  const kept = new TextDecoder().decode(
    new TextEncoder().encode(text).subarray(0, MAX_INSTRUCTIONS_BYTES),
  ).replace(/\uFFFD$/, "");
  const note = `\n[${INSTRUCTIONS_FILE} was cut here: only its first ${
    MAX_INSTRUCTIONS_BYTES / 1024
  } KB are included]`;
  return { text: kept + note, bytes, truncated: true };
}
