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
import { type CommandOutcome, COMMANDS, findCommand, unknownCommand } from "./commands.ts";

/** What the REPL drives. */
export interface ReplOptions {
  agent: Agent;
  /** Recent sessions, newest first, for /sessions. */
  listSessions: (limit: number) => Promise<SessionInfo[]>;
  renderer: Renderer;
  /** Interactive terminal (prompt, line editing, hints) or piped stdin (one task per line). */
  terminal: boolean;
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
 * stdin was piped and a task failed.
 */
export async function runRepl(options: ReplOptions): Promise<number> {
  const { renderer, terminal } = options;
  let running: AbortController | undefined;
  let exitArmed = false;
  const { editor } = options;
  const history = options.agent.session.history;
  if (terminal && history.length > 0) {
    const compactedUntil = options.agent.session.compaction?.compactedUntil ?? 0;
    renderer.transcript(buildTranscript(history, compactedUntil));
  }
  let opened: LineInput | undefined;
  const input = opened = await openLineInput({
    terminal,
    history: history.flatMap((message) =>
      message.role === "user" && !isNote(message.content) ? [message.content] : []
    ).reverse(),
    onInterrupt: () => {
      const input = opened;
      if (running) {
        input?.discardQueued();
        return running.abort();
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
            ...(editor.listDir ? { listDir: editor.listDir } : {}),
          }),
        },
      }
      : {}),
  });
  let failed = false;
  // The one error boundary of tasks and commands: Ctrl+C aborts the work, and whatever it
  // throws ends it with one line while the next line of input still runs.
  const guard = async (
    work: (signal: AbortSignal) => Promise<CommandOutcome> | CommandOutcome,
  ): Promise<CommandOutcome> => {
    running = new AbortController();
    let outcome: CommandOutcome = undefined;
    let error: string | undefined;
    try {
      outcome = await work(running.signal);
    } catch (thrown) {
      error = thrown instanceof Error ? thrown.message : String(thrown);
    } finally {
      running = undefined;
      renderer.endTask();
    }
    if (error === undefined) return outcome;
    failed = true;
    renderer.failure(error);
  };
  const task = async (text: string, signal: AbortSignal) => {
    renderer.startTask();
    const result = await options.agent.run(text, signal);
    renderer.finish(result);
    if (result.status !== "done") failed = true;
  };
  try {
    for (;;) {
      const line = await input.next("> ");
      if (line === undefined) break;
      exitArmed = false;
      const text = line.trim();
      if (text === "") continue;
      if (LEAVE_WORDS.includes(text)) break;
      if (!text.startsWith("/")) {
        await guard((signal) => task(text, signal));
        continue;
      }
      const found = findCommand(COMMANDS, text);
      if (!found) {
        renderer.line(unknownCommand(text));
        continue;
      }
      const context = { agent: options.agent, renderer, listSessions: options.listSessions };
      const outcome = await guard((signal) =>
        found.command.run(found.args, { ...context, signal })
      );
      if (outcome === "exit") break;
    }
  } finally {
    input.close();
  }
  if (terminal) renderer.farewell(options.agent.session.id);
  return failed && !terminal ? 1 : 0;
}
