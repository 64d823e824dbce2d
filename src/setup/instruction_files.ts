/**
 * Instruction files: `AGENTS.md` (the convention Codex, pi, opencode and others share) at
 * the first root and in each directory from there down to where powercode was started,
 * `CLAUDE.md` where a directory has none, and the user's own `AGENTS.md`; added to the end
 * of the system prompt, the most general first.
 *
 * @module
 */
import { readTextHead, type TextHead, type Workspace } from "../workspace/mod.ts";
import { problemOf, readOwnText } from "./setup_dir.ts";

/** The file read in each directory, and the one read where it is missing. */
export const INSTRUCTIONS_FILE = "AGENTS.md";
export const CLAUDE_FILE = "CLAUDE.md";
/** Larger files are cut to this many bytes, with a note. */
export const MAX_INSTRUCTIONS_BYTES = 32 * 1024;

/** One instruction file as added to the system prompt. */
export interface InstructionFile {
  /** How it is named on screen: `AGENTS.md`, `app/CLAUDE.md`, `~/.config/powercode/AGENTS.md`. */
  label: string;
  /** The heading of its section in the system prompt. */
  heading: string;
  /** Its text, with a note at the end when it was cut. */
  text: string;
  /** Size of the file on disk. */
  bytes: number;
  truncated: boolean;
}

/** Where instruction files are looked for. */
export interface InstructionPlaces {
  workspace: Workspace;
  /** Where powercode was started (absolute): directories below the first root down to it. */
  cwd?: string;
  /** The user's own file: its absolute path and how it is shown. */
  userFile?: { path: string; label: string };
}

/**
 * Reads the instruction files: the user's, then the first root's, then each directory's
 * from the first root down to `cwd` when it lies inside it; in each directory `AGENTS.md`,
 * else `CLAUDE.md`. Each is read at most {@linkcode MAX_INSTRUCTIONS_BYTES} bytes (cut with
 * a note). Contract: never throws; a file that cannot be used (binary, a directory, a FIFO
 * or device, outside the workspace through a link, unreadable) is left out after one line to
 * `warn`, and then its directory's `CLAUDE.md` is not read either.
 */
export async function loadInstructionFiles(
  places: InstructionPlaces,
  warn: (line: string) => void,
): Promise<InstructionFile[]> {
  const files: InstructionFile[] = [];
  const { userFile, workspace } = places;
  if (userFile) {
    const read = () => readOwnText(userFile.path, MAX_INSTRUCTIONS_BYTES);
    const file = await readOne(userFile.label, read, warn);
    if (file && file !== "missing") {
      files.push({ ...file, heading: "The user's own instructions (for every project)" });
    }
  }
  for (const dir of directoriesDown(workspace, places.cwd)) {
    for (const name of [INSTRUCTIONS_FILE, CLAUDE_FILE]) {
      const label = dir === "" ? name : `${dir}/${name}`;
      const read = () =>
        readTextHead(workspace, label, {
          action: "read project instructions",
          limit: MAX_INSTRUCTIONS_BYTES,
        });
      const file = await readOne(label, read, warn);
      if (file === "missing") continue;
      if (file) files.push({ ...file, heading: headingOf(dir, name) });
      break;
    }
  }
  return files;
}

/** The line saying which files were read: `Loaded AGENTS.md (812 bytes), app/AGENTS.md (…)`. */
export function loadedLine(files: readonly InstructionFile[]): string {
  const each = files.map((file) =>
    `${file.label} (${file.bytes} bytes${file.truncated ? ", cut to 32 KB" : ""})`
  );
  return `Loaded ${each.join(", ")}`;
}

/** The system prompt's sections for `files`, in order. */
export function instructionSections(
  files: readonly InstructionFile[],
): { heading: string; text: string }[] {
  return files.map(({ heading, text }) => ({ heading, text }));
}

function headingOf(dir: string, name: string): string {
  if (dir === "") return `Project instructions (${name} in the workspace)`;
  return `Project instructions (${dir}/${name}, for work in ${dir}/)`;
}

/** `""` for the first root, then each directory below it down to `cwd`, relative to it. */
function directoriesDown(workspace: Workspace, cwd: string | undefined): string[] {
  const dirs = [""];
  if (cwd === undefined) return dirs;
  const base = [workspace.root, workspace.path].find((root) => cwd.startsWith(`${root}/`));
  if (base === undefined) return dirs;
  const parts = cwd.slice(base.length + 1).split("/").filter((part) => part !== "");
  for (let index = 1; index <= parts.length; index++) dirs.push(parts.slice(0, index).join("/"));
  return dirs;
}

async function readOne(
  label: string,
  read: () => Promise<TextHead>,
  warn: (line: string) => void,
): Promise<Omit<InstructionFile, "heading"> | "missing" | undefined> {
  try {
    const head = await read();
    const note = `\n[${label} was cut here: only its first ${
      MAX_INSTRUCTIONS_BYTES / 1024
    } KB are included]`;
    return {
      label,
      text: head.cut ? head.text + note : head.text,
      bytes: head.size,
      truncated: head.cut,
    };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "missing";
    warn(`⚠ ${label} skipped: ${problemOf(error)}`);
    return undefined;
  }
}
