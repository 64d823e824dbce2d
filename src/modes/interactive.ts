/**
 * The interactive mode: the app opened, the front end on its agent, the notes a session
 * starts with, then the REPL (its modules load only when there is a REPL).
 *
 * @module
 */
import { openApp, type RunStart } from "../app/mod.ts";
import { stopProcessGroup } from "../sandbox/mod.ts";
import { createFrontEnd } from "../ui/mod.ts";
import { loadedLine } from "../setup/mod.ts";
import { listWorkspaceDir } from "./completion_listing.ts";

/** Runs the REPL on a terminal, or one task per line of piped stdin. */
export async function replMode(start: RunStart): Promise<number> {
  await using app = await openApp(start);
  const { agent, profiles, redactor, terminal, color, workspace } = app;
  const renderer = await createFrontEnd(agent, {
    screen: start.stdoutTerminal,
    color,
    interactive: true,
    redactor,
    fullReasoning: start.cli.showReasoning,
    model: () => profiles.label(agent.slot.name),
    approval: () => app.permissions.mode,
  });
  if (terminal && app.instructions.length > 0) {
    renderer.line(renderer.dim(loadedLine(app.instructions)));
  }
  if (app.unfinishedTodo.length > 0) renderer.unfinishedTodo(app.unfinishedTodo);
  if (agent.planMode) renderer.line(renderer.dim("Plan mode is on: /plan off leaves it"));
  const { runRepl } = await import("./repl.ts");
  return await runRepl({
    app,
    renderer,
    terminal,
    continueCommand: continueCommand(),
    editor: {
      color,
      historyFile: `${start.locations.stateDir}/history`,
      listDir: listWorkspaceDir(workspace),
      redact: (text) => redactor.redact(text),
      stopProgram: stopProcessGroup,
    },
  });
}

/**
 * The command that resumes the latest session where the program was started: the compiled
 * binary by the name it has here, `deno task start -c` in the checkout (its main module sits
 * in the current directory), else the installed `powercode`.
 */
function continueCommand(): string {
  const cwd = Deno.cwd();
  if (Deno.build.standalone) {
    const path = Deno.execPath();
    const slash = path.lastIndexOf("/");
    const name = path.slice(slash + 1);
    return path.slice(0, slash) === cwd ? `./${name} -c` : `${name} -c`;
  }
  return new URL(".", Deno.mainModule).pathname === `${cwd}/`
    ? "deno task start -c"
    : "powercode -c";
}
