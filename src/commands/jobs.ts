/**
 * `/ps` and `/kill ID`: the background commands bash started, and ending one.
 *
 * @module
 */
import { sanitizeLine } from "../terminal/mod.ts";
import type { Command } from "./command.ts";

/** `/ps`. */
export const psCommand: Command = {
  name: "/ps",
  usage: "/ps",
  help: "background commands bash started: id, state, time",
  run: ({ app, screen }) => {
    const jobs = app.jobs.list();
    if (jobs.length === 0) return screen.line("No background commands in this run");
    const now = Date.now();
    screen.line(
      jobs.map((job) => {
        const state = job.state.kind === "exited" ? `exit ${job.state.code}` : job.state.kind;
        const seconds = Math.round((now - job.startedAt) / 1000);
        return `  ${job.id.padEnd(4)}${state.padEnd(10)}${`${seconds} s`.padEnd(9)}` +
          sanitizeLine(job.command);
      }).join("\n"),
    );
  },
};

/** `/kill ID`. */
export const killCommand: Command = {
  name: "/kill",
  usage: "/kill ID",
  help: "end background command ID and every process it started",
  complete: ({ app }) =>
    app.jobs.list().filter((job) => job.state.kind === "running").map((job) => job.id),
  run: async ({ app, screen }, args) => {
    const id = args.trim();
    if (id === "") throw new TypeError("Cannot kill: give the id of a background command (/ps)");
    const job = await app.jobs.kill(id);
    screen.line(
      job.state.kind === "killed"
        ? `Killed background command ${job.id}: ${sanitizeLine(job.command)}`
        : `Background command ${job.id} had already ended: ${sanitizeLine(job.command)}`,
    );
  },
};
