/**
 * The slash commands: one file per command or group, one table that `/help`, Tab completion
 * and the REPL read.
 *
 * @module
 */
export type { Command, CommandContext, CommandOutcome, CommandTask } from "./command.ts";
export {
  commandClashes,
  COMMANDS,
  commandTable,
  findCommand,
  formatHelp,
  unknownCommand,
} from "./table.ts";
