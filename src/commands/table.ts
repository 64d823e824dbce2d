/**
 * The REPL's slash commands, one table: `/help`, Tab completion and the REPL all read it.
 * The built-in ones are fixed; {@linkcode commandTable} adds the user's custom commands and
 * the session's skills.
 *
 * @module
 */
import type { App } from "../app/mod.ts";
import { sanitizeLine, wrapText } from "../terminal/mod.ts";
import type { Command } from "./command.ts";
import { approvalCommand, permissionsCommand } from "./approval.ts";
import { initCommand } from "./init.ts";
import { customCommand, skillCommand } from "./task_command.ts";
import { compactCommand, contextCommand, costCommand } from "./context.ts";
import { exitCommand } from "./exit.ts";
import { exportCommand } from "./export.ts";
import { mcpCommand } from "./mcp.ts";
import { effortCommand, modelCommand } from "./model.ts";
import { planCommand } from "./plan.ts";
import { scopeCommand } from "./scope.ts";
import { clearCommand, sessionsCommand } from "./sessions.ts";
import { forkCommand, treeCommand } from "./tree.ts";
import { redoCommand, rewindCommand, undoCommand } from "./undo.ts";

/** `/help`. */
const helpCommand: Command = {
  name: "/help",
  usage: "/help",
  help: "this list",
  run: ({ app, screen }) => screen.line(formatHelp(commandTable(app))),
};

/** The commands, in the order `/help` lists them. */
export const COMMANDS: readonly Command[] = [
  helpCommand,
  contextCommand,
  costCommand,
  compactCommand,
  clearCommand,
  sessionsCommand,
  exportCommand,
  planCommand,
  approvalCommand,
  permissionsCommand,
  modelCommand,
  effortCommand,
  mcpCommand,
  scopeCommand,
  undoCommand,
  redoCommand,
  rewindCommand,
  treeCommand,
  forkCommand,
  initCommand,
  exitCommand,
];

/**
 * Every command of the run: the built-in ones, the user's custom commands (a name a built-in
 * has is left out: see {@linkcode commandClashes}), then `/skill:NAME` for each skill of
 * the current session.
 */
export function commandTable(app: Pick<App, "setup">): readonly Command[] {
  const builtIn = new Set(COMMANDS.map((command) => command.name));
  const custom = app.setup.commands.filter((command) => !builtIn.has(`/${command.name}`));
  return [...COMMANDS, ...custom.map(customCommand), ...app.setup.skills.map(skillCommand)];
}

/** One line for each custom command left out because a built-in command has its name. */
export function commandClashes(app: Pick<App, "setup">): string[] {
  const builtIn = new Set(COMMANDS.map((command) => command.name));
  return app.setup.commands.filter((command) => builtIn.has(`/${command.name}`)).map((command) =>
    `⚠ Command ${command.source}/${command.name}.md skipped: /${command.name} is a built-in command`
  );
}

/** Columns of `/help` before its descriptions, and the width they wrap to. */
const USAGE_COLUMNS = 20;
const HELP_COLUMNS = 56;

const KEYS = [
  "Keys:",
  "  Enter             run the task; a paste is one task, however many lines",
  "  Alt+Enter, Ctrl+J a new line (so does a trailing \\ before Enter)",
  "  Up/Down, Ctrl+R   earlier tasks (kept across runs); search them",
  "  Tab               complete commands, profile names and paths (after @ too)",
  "  Shift+Tab         cycle the approval mode: auto, edits, ask",
  "  Ctrl+W/U/K, Ctrl+Y cut a word, to the line's start or end; put it back",
  "  Ctrl+L, Ctrl+Z    clear the screen; suspend (fg brings powercode back)",
  "  Ctrl+C            interrupt a running task (what was queued is dropped);",
  "                    clear the line; twice at an empty prompt: exit",
  "  Ctrl+D            exit, at an empty prompt",
  "While a task runs the input stays below it: Enter queues a message the model",
  "reads after its current step, Alt+Enter a task for after it, Esc interrupts",
  "and gives the queue back. !cmd runs a command (!!cmd: the model does not see",
  "it); @path attaches a file.",
];

/** The `/help` text: each command's usage and help, then the keys. Fits 80 columns. */
export function formatHelp(commands: readonly Command[]): string {
  const rows = commands.flatMap((command) =>
    wrapText(command.help, HELP_COLUMNS).map((text, index) =>
      `${(index === 0 ? `  ${command.usage}` : "").padEnd(USAGE_COLUMNS)}${text}`
    )
  );
  return ["Type a task and press Enter. Commands:", ...rows, ...KEYS].join("\n");
}

/**
 * The command `text` names, with the text after its name; undefined when none has that
 * name. Contract: `text` starts with `/` and is trimmed.
 */
export function findCommand(
  commands: readonly Command[],
  text: string,
): { command: Command; args: string } | undefined {
  const [name = "", ...rest] = text.split(/\s+/);
  const command = commands.find((candidate) => candidate.name === name);
  return command && { command, args: rest.join(" ") };
}

/** The line for a name that is no command. */
export function unknownCommand(text: string): string {
  const [name = ""] = text.split(/\s+/);
  return `Unknown command "${sanitizeLine(name)}": type /help for the list`;
}
