/**
 * `/scope`: what this run may read, write and run.
 *
 * @module
 */
import type { Command } from "./command.ts";

/** `/scope`. */
export const scopeCommand: Command = {
  name: "/scope",
  usage: "/scope",
  help: "what this run may read, write and run: roots, Deno permissions, bash sandbox",
  run: async ({ app, screen }) => screen.line(await app.describeScope()),
};
