/**
 * Tab completion at the prompt: slash commands, and workspace paths for the word
 * before the cursor.
 *
 * @module
 */
import type { EditBuffer } from "./edit_buffer.ts";

/** What can replace the text from `from` to the cursor. */
export interface Completion {
  from: number;
  options: string[];
}

/** Completes the text before `cursor`. */
export type Completer = (text: string, cursor: number) => Promise<Completion>;

/** A directory entry, as `Deno.readDir` gives it. */
export interface DirEntry {
  name: string;
  isDirectory: boolean;
}

/** How to complete. */
export interface CompleterOptions {
  /** Slash commands, e.g. `/help`. */
  commands: readonly string[];
  /** Lists a directory given relative to the workspace (`""` for its root). */
  listDir?: (dir: string) => Promise<DirEntry[]>;
  /** The words a command takes as its argument (e.g. profile names after `/model`), if any. */
  commandArguments?: (command: string) => readonly string[];
}

const MAX_ENTRIES = 2000;

/**
 * A completer: a lone `/word` at the start completes to commands; the word after a command
 * that takes known words completes to them; any other non-empty word (or the part after its
 * `@`) completes to paths relative to the workspace (directories end with `/`; hidden entries
 * only when the word names them).
 * Contract: never throws; an unreadable directory completes to nothing.
 */
export function createCompleter(options: CompleterOptions): Completer {
  return async (text, cursor) => {
    const before = text.slice(0, cursor);
    if (/^\/\S*$/.test(before)) {
      return { from: 0, options: options.commands.filter((c) => c.startsWith(before)) };
    }
    const argument = /^(\/\S+) +(\S*)$/.exec(before);
    const words = argument && options.commandArguments?.(argument[1] ?? "");
    if (argument && words && words.length > 0) {
      const typed = argument[2] ?? "";
      const from = cursor - typed.length;
      return { from, options: words.filter((word) => word.startsWith(typed)) };
    }
    // `@path` (a file to attach) completes as the path after the `@`.
    const typed = /\S*$/.exec(before)?.[0] ?? "";
    const word = typed.replace(/^@/, "");
    const from = cursor - word.length;
    if (
      (word === "" && typed !== "@") || !options.listDir || word.startsWith("/") ||
      word.split("/").includes("..")
    ) {
      return { from, options: [] };
    }
    const slash = word.lastIndexOf("/");
    const dir = word.slice(0, slash + 1);
    const prefix = word.slice(slash + 1);
    try {
      const entries = (await options.listDir(dir.replace(/\/$/, ""))).slice(0, MAX_ENTRIES);
      const matches = entries
        .filter((e) =>
          e.name.startsWith(prefix) && (prefix.startsWith(".") || !e.name.startsWith("."))
        )
        .map((e) => `${dir}${e.name}${e.isDirectory ? "/" : ""}`)
        .sort();
      return { from, options: matches };
    } catch {
      return { from, options: [] };
    }
  };
}

/**
 * Applies Tab to `buffer`: a single completion replaces the word (with a space after it
 * unless it is a directory), several extend it to their common prefix; when nothing could
 * be added, `choices` are the options to list.
 */
export async function completeBuffer(
  buffer: EditBuffer,
  complete: Completer,
): Promise<{ changed: boolean; choices: string[] }> {
  const { from, options } = await complete(buffer.text, buffer.cursor);
  if (options.length === 0) return { changed: false, choices: [] };
  const typed = buffer.text.slice(from, buffer.cursor);
  const only = options.length === 1 ? options[0] ?? "" : undefined;
  const prefix = only ?? commonPrefix(options);
  if (prefix.length > typed.length) {
    while (buffer.cursor > from) buffer.backspace();
    buffer.insert(only !== undefined && !only.endsWith("/") ? `${prefix} ` : prefix);
    return { changed: true, choices: [] };
  }
  return { changed: false, choices: only === undefined ? options : [] };
}

/** The longest common prefix of `options` (empty for none). */
export function commonPrefix(options: readonly string[]): string {
  let prefix = options[0] ?? "";
  for (const option of options) {
    while (!option.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}
