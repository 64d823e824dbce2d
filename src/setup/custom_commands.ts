/**
 * Custom commands: `*.md` files whose body is sent as a task by `/NAME args`, with
 * `$ARGUMENTS`, `$1`, `$2`… filled in, and whose frontmatter says what `/help` shows
 * (`description`, `argument-hint`), the profile of that task (`model`) and the only tools
 * it may use (`allowed-tools`).
 *
 * @module
 */
import { listField, parseFrontmatter, stringField } from "./frontmatter.ts";
import { problemOf, type SetupDir, type SetupOrigin } from "./setup_dir.ts";

/** The folders at the first root commands are found in, in the order a name is looked up. */
export const PROJECT_COMMAND_DIRS = [".powercode/commands", ".claude/commands"];
/** A command file larger than this is skipped. */
export const MAX_COMMAND_BYTES = 32 * 1024;
const COMMAND_NAME = /^[A-Za-z0-9][\w.-]*$/;

/** One command file as the run found it. */
export interface CustomCommand {
  /** The name typed after `/`, from the file's name. */
  name: string;
  description?: string;
  argumentHint?: string;
  /** The profile its task runs on. */
  model?: string;
  /** The only tools its task may call. */
  allowedTools?: string[];
  /** The text sent, before its arguments are filled in. */
  body: string;
  /** The directory it came from, as the user knows it (`.claude/commands`). */
  source: string;
  origin: SetupOrigin;
}

/**
 * The commands in `dirs`, sorted by name; of two with one name, the one in the earlier
 * directory. Contract: never throws; a file that cannot be used (too large, binary,
 * unreadable, a name that cannot be typed) and a duplicate name are each left out after one
 * line to `warn`.
 */
export async function loadCustomCommands(
  dirs: readonly SetupDir[],
  warn: (line: string) => void,
): Promise<CustomCommand[]> {
  const found = new Map<string, CustomCommand>();
  for (const dir of dirs) {
    let files: string[];
    try {
      files = (await dir.list("files")).filter((file) => file.endsWith(".md"));
    } catch (error) {
      warn(`⚠ Commands in ${dir.label} skipped: ${problemOf(error)}`);
      continue;
    }
    for (const file of files) {
      const command = await readCommand(dir, file, warn);
      if (!command) continue;
      const first = found.get(command.name);
      if (first) {
        warn(`⚠ Command ${dir.label}/${file} skipped: ${first.source} has /${command.name}`);
      } else {
        found.set(command.name, command);
      }
    }
  }
  return [...found.values()].sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

async function readCommand(
  dir: SetupDir,
  file: string,
  warn: (line: string) => void,
): Promise<CustomCommand | undefined> {
  const name = file.slice(0, -".md".length);
  const skip = (why: string) => warn(`⚠ Command ${dir.label}/${file} skipped: ${why}`);
  if (!COMMAND_NAME.test(name)) {
    return void skip("its name is not letters, digits, _, . and -");
  }
  let text: string;
  try {
    const head = await dir.read(file, MAX_COMMAND_BYTES);
    if (head.cut) return void skip(`it is larger than ${MAX_COMMAND_BYTES / 1024} KB`);
    text = head.text;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    return void skip(problemOf(error));
  }
  const { fields, body } = parseFrontmatter(text);
  const description = stringField(fields, "description");
  const argumentHint = stringField(fields, "argument-hint");
  const model = stringField(fields, "model");
  const allowedTools = listField(fields, "allowed-tools");
  return {
    name,
    ...(description !== undefined ? { description } : {}),
    ...(argumentHint !== undefined ? { argumentHint } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(allowedTools !== undefined ? { allowedTools } : {}),
    body: body.trim(),
    source: dir.label,
    origin: dir.origin,
  };
}

/**
 * `body` with `$ARGUMENTS` replaced by `args` (trimmed) and `$1`…`$9` by its words (a
 * double- or single-quoted group is one word; a missing one is empty). A body that names
 * none of them gets `args` after a blank line, when there are some.
 */
export function expandArguments(body: string, args: string): string {
  const all = args.trim();
  const words = splitWords(all);
  const placeholders = /\$ARGUMENTS|\$[1-9]/;
  if (!placeholders.test(body)) return all === "" ? body : `${body}\n\n${all}`;
  return body.replace(
    /\$ARGUMENTS|\$([1-9])/g,
    (_, digit: string | undefined) => digit === undefined ? all : words[Number(digit) - 1] ?? "",
  );
}

function splitWords(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) =>
    match[1] ?? match[2] ?? match[3] ?? ""
  );
}
