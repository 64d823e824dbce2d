/**
 * The interactive loop: reads tasks and slash commands, runs them through the
 * agent, and handles Ctrl+C and Ctrl+D.
 *
 * @module
 */
import type { Agent, TaskResult } from "./agent.ts";
import type { ContextStatus } from "./context/mod.ts";
import { openLineInput } from "./line_input.ts";
import type { Renderer } from "./render.ts";
import type { SessionInfo } from "./session/mod.ts";

/** What the REPL drives. */
export interface ReplOptions {
  agent: Agent;
  /** Recent sessions, newest first, for /sessions. */
  listSessions: (limit: number) => Promise<SessionInfo[]>;
  renderer: Renderer;
  /** Interactive terminal (prompt, line editing, hints) or piped stdin (one task per line). */
  terminal: boolean;
}

const HELP = [
  "Type a task and press Enter. Commands:",
  "  /help             this list",
  "  /context          tokens in use, window, compaction threshold, messages, summary",
  "  /compact [focus]  summarize earlier messages now, optionally focused on some text",
  "  /clear            start a new session (the current one stays on disk)",
  "  /sessions         recent sessions: id, time, first task",
  "  /exit             leave (also: exit, quit, Ctrl+D)",
  "Keys: Ctrl+C interrupts a running task (twice at an empty prompt: exit), Up/Down recall history.",
].join("\n");

/**
 * Runs the REPL until EOF or exit; returns the process exit code: 0, or 1 when
 * stdin was piped and a task failed.
 */
export async function runRepl(options: ReplOptions): Promise<number> {
  const { renderer, terminal } = options;
  let running: AbortController | undefined;
  let exitArmed = false;
  const input = openLineInput({
    terminal,
    onInterrupt: () => {
      if (running) return running.abort();
      if (input.pendingText() !== "") return input.clearLine();
      if (exitArmed || !terminal) return input.close();
      exitArmed = true;
      renderer.line(renderer.dim("\n(press Ctrl+C again to exit, or type /help)"));
      input.clearLine();
    },
  });
  let failed = false;
  const guard = async (work: (signal: AbortSignal) => Promise<void>) => {
    running = new AbortController();
    try {
      await work(running.signal);
    } finally {
      running = undefined;
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
        const result = await options.agent.run(text, signal);
        renderer.finish(result);
        if (result.status !== "done") failed = true;
      });
    }
  } finally {
    input.close();
  }
  return failed && !terminal ? 1 : 0;
}

/** Runs a single task for `-p`; returns 0 when it finished, 1 otherwise. */
export async function runPrint(
  agent: Agent,
  task: string,
  options: { renderer: Renderer; printAnswer: (answer: string) => void },
): Promise<number> {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  Deno.addSignalListener("SIGINT", onSignal);
  let result: TaskResult;
  try {
    result = await agent.run(task, controller.signal);
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
  }
  if (result.status === "interrupted") options.renderer.line("⏹ Interrupted");
  else options.renderer.finish(result);
  if (result.status !== "done") return 1;
  options.printAnswer(result.answer);
  return 0;
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
      try {
        await agent.compact(rest.join(" "), signal);
      } catch (error) {
        if (!signal.aborted) throw error;
        renderer.line("⏹ Compaction interrupted; nothing changed");
      }
      return;
    }
    case "/clear": {
      agent.startNewSession();
      return renderer.line("Started a new session; the previous one stays in .powercode/sessions/");
    }
    case "/sessions":
      return renderer.line(describeSessions(await options.listSessions(10)));
    default:
      return renderer.line(`Unknown command "${command}": type /help for the list`);
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

function describeSessions(sessions: SessionInfo[]): string {
  if (sessions.length === 0) return "No saved sessions yet";
  return sessions.map((info) =>
    `${info.id}  ${
      info.created.slice(0, 16).replace("T", " ")
    }  ${info.messages} msgs  ${info.firstTask}`
  ).join("\n");
}
