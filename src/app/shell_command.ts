/**
 * `!cmd` at the prompt: the command runs as the bash tool runs it (the same sandbox and
 * policy), its output shown live; `$ cmd` and its output, cut like the tool's, go into the
 * conversation for the model's next turn. `!!cmd` runs it without that.
 *
 * @module
 */
import { type Agent, shellNote } from "../agent/mod.ts";
import { type ToolSet, userCommandCall } from "../tools/mod.ts";
import type { Renderer } from "../ui/mod.ts";

/** What a `!` command works with. */
export interface ShellContext {
  agent: Agent;
  renderer: Renderer;
  /** The live tool set: its bash tool runs the command. */
  tools: ToolSet;
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
  const call = userCommandCall("user-command", command);
  renderer.startTask("running");
  try {
    renderer.shellStart(command);
    const sink = renderer.sink;
    const result = await context.tools.execute(
      call,
      signal,
      (text) => sink({ type: "tool_output", call, text }),
    );
    const { isError, summary, details } = result;
    sink({ type: "tool_end", call, isError, summary, ...(details ? { details } : {}) });
    // Only a command that ran and ended goes to the model (not a refusal, not an interruption).
    if (keep && details?.kind === "command" && !signal.aborted) {
      const content = shellNote(command, result.content);
      context.agent.session.append({ role: "user", content, shown: `!${command}` });
    }
    return !isError;
  } finally {
    renderer.endTask();
  }
}
