/**
 * `/exit`: leaving the REPL.
 *
 * @module
 */
import type { Command } from "./command.ts";

/** `/exit`. */
export const exitCommand: Command = {
  name: "/exit",
  usage: "/exit",
  help: "leave (also: exit, quit, Ctrl+D)",
  run: () => "exit",
};
