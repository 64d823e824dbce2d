/**
 * Project instructions: an `AGENTS.md` at the workspace root (the convention Codex, pi,
 * opencode and others share), added to the system prompt.
 *
 * @module
 */
import { readTextHead, type Workspace } from "../tools/mod.ts";

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

/** The line saying the instructions were read: `Loaded AGENTS.md (812 bytes)`. */
export function loadedLine(instructions: ProjectInstructions): string {
  const cut = instructions.truncated ? ", cut to 32 KB" : "";
  return `Loaded ${INSTRUCTIONS_FILE} (${instructions.bytes} bytes${cut})`;
}

/** How {@linkcode loadProjectInstructions} reports a file it skips. */
export interface LoadInstructionsOptions {
  /** Receives one line saying why AGENTS.md was left out. */
  warn?: (line: string) => void;
}

/**
 * Reads `AGENTS.md` from the workspace root, at most its first
 * {@linkcode MAX_INSTRUCTIONS_BYTES} bytes (a longer file is cut, with a note).
 * Contract: never throws. Undefined when there is none, and also, after one line to
 * `warn`, when it cannot be used: binary, a directory, a FIFO or device, outside the
 * workspace through a symlink, unreadable. So a bad AGENTS.md never stops a start or
 * a `/clear`.
 */
export async function loadProjectInstructions(
  workspace: Workspace,
  options: LoadInstructionsOptions = {},
): Promise<ProjectInstructions | undefined> {
  try {
    const head = await readTextHead(workspace, INSTRUCTIONS_FILE, {
      action: "read project instructions",
      limit: MAX_INSTRUCTIONS_BYTES,
    });
    if (!head.cut) return { text: head.text, bytes: head.size, truncated: false };
    const note = `\n[${INSTRUCTIONS_FILE} was cut here: only its first ${
      MAX_INSTRUCTIONS_BYTES / 1024
    } KB are included]`;
    return { text: head.text + note, bytes: head.size, truncated: true };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    options.warn?.(`⚠ ${INSTRUCTIONS_FILE} skipped: ${reason(error)}`);
    return undefined;
  }
}

/** What is wrong with the file, without the `Cannot … "AGENTS.md":` lead and the hints to the model. */
function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^Cannot [^"]*"AGENTS\.md": /, "").split("; ")[0] ?? message;
}
