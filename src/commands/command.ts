/**
 * What a slash command is: how it is typed, what `/help` says of it, the words Tab offers
 * after it, and what it does with the run.
 *
 * @module
 */
import type { App, TaskLimits } from "../app/mod.ts";
import type { Renderer } from "../ui/mod.ts";

/** What a command works with. */
export interface CommandContext {
  /** The run's parts. */
  app: App;
  /** Where the command's lines go. */
  screen: Renderer;
  /** Aborted by Ctrl+C while the command runs. */
  signal: AbortSignal;
  /** Puts text on the input line for the next prompt (on a terminal). */
  setInput?: (text: string) => void;
}

/** What a command that is a task sends: the user message, and the limits of its task. */
export interface CommandTask {
  text: string;
  limits?: TaskLimits;
}

/** `exit` ends the REPL; anything else brings the prompt back. */
export type CommandOutcome = "exit" | void;

/** One slash command. */
export interface Command {
  /** What is typed, e.g. `/compact`. */
  name: string;
  /** The name with its arguments, as `/help` shows it, e.g. `/compact [focus]`. */
  usage: string;
  /** What `/help` says it does: plain text, wrapped to fit. */
  help: string;
  /** Where a user's command came from (`.claude/commands`); built-in commands have none. */
  source?: string;
  /**
   * For a command that is a task (a custom command, `/skill:NAME`, `/init`): what it sends for
   * the text typed after its name. The REPL runs it as it runs a typed task, the input kept
   * below it, instead of calling `run`.
   * Contract: may throw (an unreadable skill); the REPL then shows one `✗` line.
   */
  task?(context: Pick<CommandContext, "app">, args: string): Promise<CommandTask> | CommandTask;
  /** The words Tab offers as its argument (profile names after `/model`); none when absent. */
  complete?(context: Pick<CommandContext, "app">, args: string): readonly string[];
  /**
   * Does it, given the text typed after the name.
   * Contract: may throw; the REPL shows the error as one `✗` line and goes on.
   */
  run(context: CommandContext, args: string): Promise<CommandOutcome> | CommandOutcome;
}
