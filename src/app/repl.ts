/**
 * The interactive loop: reads tasks and slash commands, runs them through the
 * agent, and handles Ctrl+C and Ctrl+D.
 *
 * @module
 */
import { type Agent, isNote } from "../agent/mod.ts";
import { createCompleter, type DirEntry, type LineInput, openLineInput } from "../editor/mod.ts";
import { buildTranscript, type Renderer } from "../ui/mod.ts";
import type { SessionInfo } from "../session/mod.ts";
import type { McpServers } from "../mcp/mod.ts";
import { Boundary } from "./boundary.ts";
import { type CommandOutcome, COMMANDS, findCommand, unknownCommand } from "./commands.ts";
import { EFFORT_CHOICES } from "./model_commands.ts";
import type { Profiles } from "./profiles.ts";

/** What the REPL drives. */
export interface ReplOptions {
  agent: Agent;
  /** Recent sessions, newest first, for /sessions. */
  listSessions: (limit: number) => Promise<SessionInfo[]>;
  /** The provider file's profiles, for /model and /effort. */
  profiles: Profiles;
  /** The text of `/scope`. */
  describeScope: () => Promise<string>;
  renderer: Renderer;
  /** Interactive terminal (prompt, line editing, hints) or piped stdin (one task per line). */
  terminal: boolean;
  /** The MCP servers, for /mcp. */
  mcp?: McpServers;
  /** How the session is resumed where the program was started, for the exit line. */
  continueCommand?: string;
  /** For the terminal's line editor: colours, the history file, and workspace listing for Tab. */
  editor?: {
    color: boolean;
    historyFile?: string;
    listDir?: (dir: string) => Promise<DirEntry[]>;
    /** Applied to each entry before it is written to the history file. */
    redact?: (text: string) => string;
  };
}

/** Words that leave the REPL like `/exit`. */
const LEAVE_WORDS = ["exit", "quit"];

/**
 * Runs the REPL until EOF or exit; returns the process exit code: 0, or 1 when
 * stdin was piped and a task or command failed.
 */
export async function runRepl(options: ReplOptions): Promise<number> {
  const { renderer, terminal, agent } = options;
  const boundary = new Boundary(renderer);
  if (terminal && agent.session.history.length > 0) {
    const compactedUntil = agent.session.compaction?.compactedUntil ?? 0;
    const describe = agent.describeCall.bind(agent);
    renderer.transcript(buildTranscript(agent.session.history, compactedUntil, { describe }));
  }
  const input = await openInput(options, boundary);
  try {
    for (;;) {
      const line = await input.next("> ");
      if (line === undefined) break;
      const text = line.trim();
      if (text === "") continue;
      if (LEAVE_WORDS.includes(text)) break;
      if (await runLine(text, options, boundary) === "exit") break;
    }
  } finally {
    input.close();
  }
  if (terminal) renderer.farewell(agent.session.id, options.continueCommand);
  return boundary.failed && !terminal ? 1 : 0;
}

/** Runs one line of input behind the boundary: a slash command, or else a task. */
async function runLine(
  text: string,
  options: ReplOptions,
  boundary: Boundary,
): Promise<CommandOutcome> {
  const { agent, renderer, listSessions, profiles, describeScope } = options;
  if (!text.startsWith("/")) {
    return await boundary.run(async (signal) => {
      renderer.startTask();
      const result = await agent.run(text, signal);
      renderer.finish(result);
      if (result.status !== "done") boundary.fail();
    });
  }
  const found = findCommand(COMMANDS, text);
  if (!found) return renderer.line(unknownCommand(text));
  const context = {
    agent,
    renderer,
    listSessions,
    profiles,
    describeScope,
    ...(options.mcp ? { mcp: options.mcp } : {}),
  };
  return await boundary.run((signal) => found.command.run(found.args, { ...context, signal }));
}

/**
 * The line input: Ctrl+C aborts running work (dropping keys typed ahead), clears typed
 * text, or at an empty prompt hints and then, pressed again, exits.
 */
async function openInput(
  options: ReplOptions,
  boundary: Boundary,
): Promise<Pick<LineInput, "next" | "close">> {
  const { renderer, terminal, editor } = options;
  let exitArmed = false;
  let opened: LineInput | undefined;
  const input = opened = await openLineInput({
    terminal,
    history: options.agent.session.history.flatMap((message) =>
      message.role === "user" && !isNote(message.content) ? [message.content] : []
    ).reverse(),
    onInterrupt: () => {
      const input = opened;
      if (boundary.busy) {
        input?.discardQueued();
        return boundary.abort();
      }
      if (!input) return;
      if (input.pendingText() !== "") return input.clearLine();
      if (exitArmed || !terminal) return input.close();
      exitArmed = true;
      input.notice(renderer.dim("(press Ctrl+C again to exit, or type /help)"));
    },
    write: (text) => renderer.line(text.replace(/\n$/, "")),
    ...(editor
      ? {
        editor: {
          ...editor,
          complete: createCompleter({
            commands: COMMANDS.map((command) => command.name),
            commandArguments: (command) =>
              command === "/model"
                ? options.profiles.names()
                : command === "/effort"
                ? EFFORT_CHOICES
                : [],
            ...(editor.listDir ? { listDir: editor.listDir } : {}),
          }),
        },
      }
      : {}),
  });
  return {
    // A line read disarms the exit, so that a later Ctrl+C hints again.
    next: async (prompt) => {
      const line = await input.next(prompt);
      exitArmed = false;
      return line;
    },
    close: () => input.close(),
  };
}
