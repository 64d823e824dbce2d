/**
 * The interactive loop: reads tasks and slash commands, runs them through the
 * agent, and handles Ctrl+C and Ctrl+D.
 *
 * @module
 */
import { type Agent, isNote } from "../agent/mod.ts";
import type { ContextStatus } from "../context/mod.ts";
import { createCompleter, type DirEntry, type LineInput, openLineInput } from "../editor/mod.ts";
import { buildTranscript, formatSessionsTable, type Renderer } from "../ui/mod.ts";
import type { SessionInfo } from "../session/mod.ts";
import { sanitizeLine } from "../terminal/mod.ts";

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

/** The slash commands, for Tab completion. */
export const COMMANDS = ["/help", "/context", "/compact", "/clear", "/sessions", "/exit"];

const HELP = [
  "Type a task and press Enter. Commands:",
  "  /help             this list",
  "  /context          tokens in use, window, compaction threshold, messages,",
  "                    summary",
  "  /compact [focus]  summarize earlier messages now, optionally focused on",
  "                    some text",
  "  /clear            start a new session (the current one stays on disk)",
  "  /sessions         recent sessions: id, start time, messages, first task",
  "  /exit             leave (also: exit, quit, Ctrl+D)",
  "Keys:",
  "  Enter             run the task; a paste is one task, however many lines",
  "  Alt+Enter, Ctrl+J a new line (so does a trailing \\ before Enter)",
  "  Up/Down           earlier tasks (kept in .powercode/history)",
  "  Tab               complete commands and workspace paths",
  "  Ctrl+C            interrupt a running task (keys typed meanwhile are",
  "                    dropped); clear the line; twice at an empty prompt: exit",
  "  Ctrl+D            exit, at an empty prompt",
  "Keys typed while a task runs wait for the next prompt.",
].join("\n");

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
    const describe = options.agent.describeCall.bind(options.agent);
    renderer.transcript(buildTranscript(history, compactedUntil, { describe }));
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
            commands: COMMANDS,
            ...(editor.listDir ? { listDir: editor.listDir } : {}),
          }),
        },
      }
      : {}),
  });
  let failed = false;
  const guard = async (work: (signal: AbortSignal) => Promise<void>) => {
    running = new AbortController();
    try {
      await work(running.signal);
    } finally {
      running = undefined;
      renderer.endTask();
    }
  };
  try {
    for (;;) {
      const line = await input.next("> ");
      if (line === undefined) break;
      exitArmed = false;
      const text = line.trim();
      if (text === "") continue;
      if (["exit", "quit", "/exit"].includes(text)) break;
      if (text.startsWith("/")) {
        await guard((signal) => runCommand(text, options, signal));
        continue;
      }
      await guard(async (signal) => {
        renderer.startTask();
        const result = await options.agent.run(text, signal);
        renderer.finish(result);
        if (result.status !== "done") failed = true;
      });
    }
  } finally {
    input.close();
  }
  if (terminal) renderer.farewell(options.agent.session.id);
  return failed && !terminal ? 1 : 0;
}

async function runCommand(text: string, options: ReplOptions, signal: AbortSignal): Promise<void> {
  const [command = "", ...rest] = text.split(/\s+/);
  const { renderer, agent } = options;
  switch (command) {
    case "/help":
      return renderer.line(HELP);
    case "/context":
      return renderer.line(describeContext(agent.context()));
    case "/compact": {
      renderer.startTask("compacting");
      try {
        await agent.compact(rest.join(" "), signal);
      } catch (error) {
        if (!signal.aborted) throw error;
        renderer.line("⏹ Compaction interrupted; nothing changed");
      } finally {
        renderer.endTask();
      }
      return;
    }
    case "/clear": {
      await agent.startNewSession();
      return renderer.line("Started a new session; the previous one stays in .powercode/sessions/");
    }
    case "/sessions":
      return renderer.line(
        formatSessionsTable(await options.listSessions(10), {
          currentId: agent.session.id,
          width: renderer.width,
        }),
      );
    default:
      return renderer.line(`Unknown command "${sanitizeLine(command)}": type /help for the list`);
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
