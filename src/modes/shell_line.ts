/**
 * `!cmd` at the prompt: the command runs as the bash tool runs it (the same sandbox and
 * policy), its output shown live; `$ cmd` and its output, cut like the tool's, go into the
 * conversation for the model's next turn. `!!cmd` runs it without that. Either is an
 * operation of the Agent, snapshotted like a task, so `/undo` takes it back.
 *
 * @module
 */
import type { Agent } from "../agent/mod.ts";
import type { Renderer } from "../ui/mod.ts";

/** What a `!` command works with. */
export interface ShellContext {
  /** Runs the command as an operation of the session, so that listeners see it and /undo takes it back. */
  agent: Pick<Agent, "runCommand">;
  renderer: Renderer;
  /** Aborted by Ctrl+C (or Esc) while the command runs. */
  signal: AbortSignal;
}

/** Whether `line` is a `!` command. */
export function isShellLine(line: string): boolean {
  return line.startsWith("!");
}

/**
 * Runs the `!` (or `!!`) command of `line`; returns whether it succeeded.
 * Contract: never throws for the command; the note joins history only after `!` (not `!!`)
 * and only once the command has ended, so an interrupted command leaves none.
 */
export async function runShellLine(line: string, context: ShellContext): Promise<boolean> {
  const { renderer, signal } = context;
  const keep = !line.startsWith("!!");
  const command = line.slice(keep ? 1 : 2).trim();
  if (command === "") {
    renderer.line(
      renderer.dim("Type a command after ! (or !! to keep it out of the conversation)"),
    );
    return true;
  }
  renderer.startTask("running");
  try {
    return await context.agent.runCommand(command, { keep, signal });
  } finally {
    renderer.endTask();
  }
}
