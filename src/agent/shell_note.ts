/**
 * The note a `!cmd` typed at the prompt leaves for the model: the command and its output, as
 * a user message the next task goes out joined to.
 *
 * @module
 */
import { NOTE_PREFIX } from "./task_notes.ts";

const SHELL_PREFIX = `${NOTE_PREFIX}The user ran a command in the workspace; its output is ` +
  "for your information, no reply is needed:\n$ ";
/** The last line of the bash tool's output for a command that exited 0. */
const SUCCESS = "exit code 0";

/** The note for `command` run by the user, with `output` as the bash tool words it. */
export function shellNote(command: string, output: string): string {
  return `${SHELL_PREFIX}${command}\n${output}`;
}

/** What a shell note records, for the redraw: the command's first line and whether it succeeded. */
export function parseShellNote(content: string): { command: string; ok: boolean } | undefined {
  if (!content.startsWith(SHELL_PREFIX)) return undefined;
  const rest = content.slice(SHELL_PREFIX.length);
  const command = rest.slice(0, rest.indexOf("\n") < 0 ? rest.length : rest.indexOf("\n"));
  return { command, ok: rest.endsWith(`\n${SUCCESS}`) };
}
