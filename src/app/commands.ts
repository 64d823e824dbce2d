/**
 * The REPL's slash commands, one table: how each is typed, what `/help` says of it, and
 * what it does. `/help` and Tab completion are built from it.
 *
 * @module
 */
import type { Agent } from "../agent/mod.ts";
import type { ContextStatus } from "../context/mod.ts";
import type { SessionInfo } from "../session/mod.ts";
import { sanitizeLine, wrapText } from "../terminal/mod.ts";
import { describeSpend, formatSessionsTable, type Renderer } from "../ui/mod.ts";
import type { McpServers } from "../mcp/mod.ts";
import { runMcpCommand } from "./mcp_command.ts";
import { effortCommand, modelCommand } from "./model_commands.ts";
import { planCommand } from "./plan_command.ts";
import type { TaskUndo } from "../undo/mod.ts";
import { redoCommand, rewindCommand, undoCommand } from "./undo_commands.ts";
import type { Profiles } from "./profiles.ts";

/** What a command works with. */
export interface CommandContext {
  agent: Agent;
  renderer: Renderer;
  /** Recent sessions, newest first. */
  listSessions: (limit: number) => Promise<SessionInfo[]>;
  /** The provider file's profiles, for /model and /effort. */
  profiles: Profiles;
  /** Aborted by Ctrl+C while the command runs. */
  signal: AbortSignal;
  /** The MCP servers, when any is configured. */
  mcp?: McpServers;
  /** The text of `/scope`: what this run may read, write and run. */
  describeScope: () => Promise<string>;
  /** Snapshots around tasks, for /undo, /redo and /rewind; undefined when off. */
  undo?: TaskUndo;
  /** Puts text on the input line for the next prompt (on a terminal). */
  setInput?: (text: string) => void;
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
  /**
   * Does it, given the text typed after the name.
   * Contract: may throw; the REPL shows the error as one `✗` line and goes on.
   */
  run(args: string, context: CommandContext): Promise<CommandOutcome> | CommandOutcome;
}

/** The commands, in the order `/help` lists them. */
export const COMMANDS: readonly Command[] = [
  {
    name: "/help",
    usage: "/help",
    help: "this list",
    run: (_args, { renderer }) => renderer.line(formatHelp(COMMANDS)),
  },
  {
    name: "/context",
    usage: "/context",
    help: "tokens in use, window, compaction threshold, messages, summary",
    run: (_args, { renderer, agent }) => renderer.line(describeContext(agent.context())),
  },
  {
    name: "/cost",
    usage: "/cost",
    help: "tokens, cached share, cost of the last task and session",
    run: (_args, { renderer, agent }) => {
      const spend = agent.spend();
      renderer.line(spend ? describeSpend(spend) : "Nothing is counted in this run");
    },
  },
  {
    name: "/compact",
    usage: "/compact [focus]",
    help: "summarize earlier messages now, optionally focused on some text",
    run: compact,
  },
  {
    name: "/clear",
    usage: "/clear",
    help: "start a new session (the current one stays on disk)",
    run: async (_args, { renderer, agent }) => {
      await agent.startNewSession();
      renderer.say("Started a new session; the previous one stays on disk (/sessions lists it)");
    },
  },
  {
    name: "/sessions",
    usage: "/sessions",
    help: "recent sessions: id, start time, messages, first task",
    run: async (_args, { renderer, agent, listSessions }) => {
      const table = formatSessionsTable(await listSessions(10), {
        currentId: agent.session.id,
        width: renderer.width,
      });
      renderer.line(table);
    },
  },
  {
    name: "/plan",
    usage: "/plan [on|off]",
    help: "plan mode: only PLAN.md may change, bash read-only",
    run: planCommand,
  },
  {
    name: "/model",
    usage: "/model [name]",
    help: "list the profiles; with a name, switch to that one",
    run: modelCommand,
  },
  {
    name: "/effort",
    usage: "/effort [level]",
    help: "reasoning effort: minimal, low, medium, high or off",
    run: effortCommand,
  },
  {
    name: "/mcp",
    usage: "/mcp",
    help: "MCP servers: state, sandbox, tools; /mcp restart NAME restarts one",
    run: async (args, { renderer, mcp }) =>
      renderer.line(await runMcpCommand(args, mcp, renderer.width)),
  },
  {
    name: "/scope",
    usage: "/scope",
    help: "what this run may read, write and run: roots, Deno permissions, bash sandbox",
    run: async (_args, { renderer, describeScope }) => renderer.line(await describeScope()),
  },
  {
    name: "/undo",
    usage: "/undo [--force]",
    help: "take back the last task: its file changes (bash too) and its messages",
    run: undoCommand,
  },
  {
    name: "/redo",
    usage: "/redo [--force]",
    help: "bring back what /undo or /rewind took, until a new task starts",
    run: redoCommand,
  },
  {
    name: "/rewind",
    usage: "/rewind [N]",
    help: "list the tasks; with N, go back to before task N (--files or --chat: only those)",
    run: rewindCommand,
  },
  {
    name: "/exit",
    usage: "/exit",
    help: "leave (also: exit, quit, Ctrl+D)",
    run: () => "exit",
  },
];

/** Columns of `/help` before its descriptions, and the width they wrap to. */
const USAGE_COLUMNS = 20;
const HELP_COLUMNS = 56;

const KEYS = [
  "Keys:",
  "  Enter             run the task; a paste is one task, however many lines",
  "  Alt+Enter, Ctrl+J a new line (so does a trailing \\ before Enter)",
  "  Up/Down, Ctrl+R   earlier tasks (kept across runs); search them",
  "  Tab               complete commands, profile names and paths (after @ too)",
  "  Ctrl+W/U/K, Ctrl+Y cut a word, to the line's start or end; put it back",
  "  Ctrl+L, Ctrl+Z    clear the screen; suspend (fg brings powercode back)",
  "  Ctrl+C            interrupt a running task (what was queued is dropped);",
  "                    clear the line; twice at an empty prompt: exit",
  "  Ctrl+D            exit, at an empty prompt",
  "While a task runs the input stays below it: Enter queues a message the model",
  "reads after its current step, Alt+Enter a task for after it, Esc interrupts",
  "and gives the queue back. !cmd runs a command (!!cmd: the model does not see",
  "it); @path attaches a file.",
];

/** The `/help` text: each command's usage and help, then the keys. Fits 80 columns. */
export function formatHelp(commands: readonly Command[]): string {
  const rows = commands.flatMap((command) =>
    wrapText(command.help, HELP_COLUMNS).map((text, index) =>
      `${(index === 0 ? `  ${command.usage}` : "").padEnd(USAGE_COLUMNS)}${text}`
    )
  );
  return ["Type a task and press Enter. Commands:", ...rows, ...KEYS].join("\n");
}

/**
 * The command `text` names, with the text after its name; undefined when none has that
 * name. Contract: `text` starts with `/` and is trimmed.
 */
export function findCommand(
  commands: readonly Command[],
  text: string,
): { command: Command; args: string } | undefined {
  const [name = "", ...rest] = text.split(/\s+/);
  const command = commands.find((candidate) => candidate.name === name);
  return command && { command, args: rest.join(" ") };
}

/** The line for a name that is no command. */
export function unknownCommand(text: string): string {
  const [name = ""] = text.split(/\s+/);
  return `Unknown command "${sanitizeLine(name)}": type /help for the list`;
}

async function compact(args: string, { renderer, agent, signal }: CommandContext): Promise<void> {
  renderer.startTask("compacting");
  try {
    await agent.compact(args, signal);
  } catch (error) {
    if (!signal.aborted) throw error;
    renderer.line("⏹ Compaction interrupted; nothing changed");
  } finally {
    renderer.endTask();
  }
}

function describeContext(status: ContextStatus): string {
  const summary = status.summary
    ? `yes, covering messages before #${status.compactedUntil}`
    : "none";
  return [
    `Context: approx ${status.estimatedTokens} tokens in use of ${status.contextWindow}`,
    `  compaction threshold: ${status.threshold} tokens`,
    `  messages in history: ${status.messages}`,
    `  summary: ${summary}`,
  ].join("\n");
}
