/**
 * Tab completion at the prompt: slash commands, and workspace paths for the word
 * before the cursor.
 *
 * @module
 */

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
}

const MAX_ENTRIES = 2000;

/**
 * A completer: a lone `/word` at the start completes to commands; any other non-empty
 * word completes to paths relative to the workspace (directories end with `/`; hidden
 * entries only when the word names them).
 * Contract: never throws; an unreadable directory completes to nothing.
 */
export function createCompleter(options: CompleterOptions): Completer {
  return async (text, cursor) => {
    const before = text.slice(0, cursor);
    if (/^\/\S*$/.test(before)) {
      return { from: 0, options: options.commands.filter((c) => c.startsWith(before)) };
    }
    const word = /\S*$/.exec(before)?.[0] ?? "";
    const from = cursor - word.length;
    if (word === "" || !options.listDir || word.startsWith("/") || word.split("/").includes("..")) {
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

/** The longest common prefix of `options` (empty for none). */
export function commonPrefix(options: readonly string[]): string {
  let prefix = options[0] ?? "";
  for (const option of options) {
    while (!option.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}
