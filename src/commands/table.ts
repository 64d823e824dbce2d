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
import { cacheCommand } from "./cache.ts";
import { initCommand } from "./init.ts";
import { customCommand, skillCommand } from "./task_command.ts";
import { compactCommand, contextCommand, costCommand } from "./context.ts";
import { exitCommand } from "./exit.ts";
import { killCommand, psCommand } from "./jobs.ts";
import { exportCommand } from "./export.ts";
import { mcpCommand } from "./mcp.ts";
import { effortCommand, modelCommand } from "./model.ts";
import { planCommand } from "./plan.ts";
import { scopeCommand } from "./scope.ts";
import { clearCommand, sessionsCommand } from "./sessions.ts";
import { forkCommand, treeCommand } from "./tree.ts";
import { redoCommand, rewindCommand, undoCommand } from "./undo.ts";

/** `/help`, and `/help NAME` for one command. */
const helpCommand: Command = {
  name: "/help",
  usage: "/help [command]",
  help: "the commands and keys; with a command's name, what it does",
  complete: ({ app }) => commandTable(app).map((command) => command.name),
  run: ({ app, screen }, args) => {
    const commands = commandTable(app);
    if (args.trim() === "") return screen.line(formatHelp(commands, screen.width));
    const name = args.trim().startsWith("/") ? args.trim() : `/${args.trim()}`;
    const found = findCommand(commands, name);
    if (!found) throw new RangeError(unknownCommand(name));
    screen.say(`${found.command.usage}: ${found.command.help}`, "  ");
  },
};

/** The commands, in the order `/help` lists them. */
export const COMMANDS: readonly Command[] = [
  helpCommand,
  contextCommand,
  costCommand,
  cacheCommand,
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
  psCommand,
  killCommand,
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

const KEYS = [
  "Keys:",
  "  Enter             run the input; Alt+Enter or Ctrl+J: a new line",
  "  Up/Down, Ctrl+R   earlier inputs (kept across runs); search them",
  "  Tab               complete commands, their words and paths (after @ too)",
  "  Shift+Tab         cycle the approval mode: auto, edits, ask",
  "  Ctrl+W/U/K, Ctrl+Y cut a word, to the line's start or end; put it back",
  "  Ctrl+L, Ctrl+Z    clear the screen; suspend (fg brings powercode back)",
  "  Ctrl+C            interrupt a task; clear the line; twice when empty: exit",
  "  Ctrl+D            exit, at an empty prompt",
];

const BUSY = "While a task runs, Enter queues a message for its next step, Alt+Enter a task " +
  "for after it; Alt+Up takes the queue back to edit, Esc too, interrupting. !cmd runs a " +
  "command (!!cmd: the model does not see it); @path attaches a file.";

/**
 * The `/help` text, compact enough for a 24-row screen: the command names wrapped to
 * `width`, then the keys. What each command does is behind `/help NAME` and the palette.
 */
export function formatHelp(commands: readonly Command[], width = 80): string {
  const columns = Math.max(20, Math.min(width, 80) - 1);
  const names = wrapText(commands.map((command) => command.name).join("  "), columns - 2);
  return [
    ...wrapText(
      "Type a task and press Enter; / opens the list of commands. Commands " +
        "(/help NAME says what one does):",
      columns,
    ),
    ...names.map((line) => `  ${line}`),
    ...KEYS,
    ...wrapText(BUSY, columns),
  ].join("\n");
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
