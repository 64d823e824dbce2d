/**
 * `/clear` and `/sessions`: a new session, and the recent ones.
 *
 * @module
 */
import { loadSessionsTable } from "../ui/mod.ts";
import type { Command } from "./command.ts";

/** `/clear`. */
export const clearCommand: Command = {
  name: "/clear",
  usage: "/clear",
  help: "start a new session (the current one stays on disk)",
  run: async ({ app, screen }) => {
    await app.agent.startNewSession();
    screen.say("Started a new session; the previous one stays on disk (/sessions lists it)");
  },
};

/** `/sessions`. */
export const sessionsCommand: Command = {
  name: "/sessions",
  usage: "/sessions",
  help: "recent sessions: id, start time, messages, first task",
  run: async ({ app, screen }) => {
    const formatSessionsTable = await loadSessionsTable();
    const table = formatSessionsTable(await app.sessions.list(10), {
      currentId: app.agent.view.id,
      width: screen.width,
    });
    screen.line(table);
  },
};
