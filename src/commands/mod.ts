/**
 * The slash commands: one file per command or group, one table that `/help`, Tab completion
 * and the REPL read.
 *
 * @module
 */
export type { Command, CommandContext, CommandOutcome } from "./command.ts";
export { COMMANDS, findCommand, formatHelp, unknownCommand } from "./table.ts";
