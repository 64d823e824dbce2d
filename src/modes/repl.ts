/**
 * The interactive loop: reads tasks, `!` commands and slash commands, runs them through the
 * agent (lines typed meanwhile queued), and handles Ctrl+C, Esc and Ctrl+D.
 *
 * @module
 */
import { isNote } from "../agent/mod.ts";
import {
  createCompleter,
  type DirEntry,
  type LineInput,
  openLineInput,
  type Submitted,
} from "../editor/mod.ts";
import type { Terminal } from "../terminal/mod.ts";
import { loadTranscript, type Renderer } from "../ui/mod.ts";
import type { App } from "../app/mod.ts";
import {
  type Command,
  commandClashes,
  type CommandOutcome,
  commandTable,
  findCommand,
  unknownCommand,
} from "../commands/mod.ts";
import { withoutAttachments } from "./attachments.ts";
import { Boundary } from "./boundary.ts";
import { InputQueue } from "./input_queue.ts";
import { isShellLine, runShellLine } from "./shell_line.ts";
import { runTask, type TaskContext } from "./task_run.ts";
import { TerminalQuestions } from "./questions.ts";

/** What the REPL drives besides the app. */
export interface ReplOptions {
  app: App;
  renderer: Renderer;
  /** Interactive terminal (prompt, line editing, hints) or piped stdin (one task per line). */
  terminal: boolean;
  /** How the session is resumed where the program was started, for the exit line. */
  continueCommand?: string;
  /** For the terminal's line editor: colours, the history file, and workspace listing for Tab. */
  editor?: {
    color: boolean;
    historyFile?: string;
    listDir?: (dir: string) => Promise<DirEntry[]>;
    /** Applied to each entry before it is written to the history file. */
    redact?: (text: string) => string;
    /** Stops the program until it is continued (Ctrl+Z). */
    stopProgram?: () => Promise<void>;
    /** The terminal keys come from and the input is drawn on (default: the process's). */
    terminal?: Terminal;
  };
}

/** The line running now (as typed), which heads its live rows again after Ctrl+Z and `fg`. */
interface Running {
  line?: string;
}

// Loaded with the REPL, so that a resumed conversation's redraw waits for nothing.
const buildTranscript = await loadTranscript();

/** The notification of a question before a tool call, while the terminal has no focus. */
const QUESTION_WAITS = "powercode: a question waits for your answer";
/** The notification of a task's end, while the terminal has no focus. */
const TASK_ENDED = "powercode: the task ended";

/** Words that leave the REPL like `/exit`. */
const LEAVE_WORDS = ["exit", "quit"];

/**
 * Runs the REPL until EOF or exit; returns the process exit code: 0, or 1 when
 * stdin was piped and a task or command failed.
 */
export async function runRepl(options: ReplOptions): Promise<number> {
  const { renderer, terminal } = options;
  const { agent } = options.app;
  const boundary = new Boundary(renderer);
  const queue = new InputQueue();
  const session = agent.view;
  if (terminal && session.history.length > 0) {
    const compactedUntil = session.compaction?.compactedUntil ?? 0;
    const describe = agent.describeCall.bind(agent);
    renderer.transcript(buildTranscript(session.history, compactedUntil, { describe }));
  }
  const attention = { call: (_text: string) => {} };
  const questions = terminal
    ? new TerminalQuestions(renderer, () => {
      attention.call(QUESTION_WAITS);
      options.app.hooks.notify(QUESTION_WAITS);
    })
    : undefined;
  const { permissions } = options.app;
  // Without a terminal nothing waits for an answer: what would ask is refused.
  permissions.setAsker(questions);
  for (const line of commandClashes(options.app)) renderer.line(line);
  const running: Running = {};
  const input = await openInput(options, { boundary, queue, running });
  let reading = true;
  const mcp = options.app.mcp;
  if (mcp && mcp.waiting().length > 0) {
    // Servers starting in the background say how their start went, above the prompt.
    void mcp.settled().then((lines) => {
      if (!reading) return;
      const say = (line: string) => boundary.busy ? renderer.line(line) : input.announce(line);
      for (const line of lines) say(line);
      say(renderer.dim(mcp.startedLine()));
    });
  }
  attention.call = (text) => input.attention(text);
  try {
    for (;;) {
      const entry = await nextEntry(input, queue, renderer, agent.planMode ? "plan > " : "> ");
      if (entry === undefined) break;
      const text = entry.text.trim();
      if (text === "") continue;
      if (LEAVE_WORDS.includes(text)) break;
      const shown = entry.shown?.trim();
      const line = { text, ...(shown !== undefined ? { shown } : {}) };
      const context = { ...options, boundary, input, queue, questions };
      running.line = shown ?? text;
      const outcome = await runLine(line, context);
      delete running.line;
      if (outcome === "exit") break;
    }
  } finally {
    reading = false;
    permissions.setAsker(undefined);
    input.close();
  }
  if (terminal) renderer.farewell(agent.view.id, options.continueCommand, agent.spend());
  return boundary.failed && !terminal ? 1 : 0;
}

/**
 * The next line to run: what was queued for after the last task first (shown as the user's
 * line), else a line read at the prompt.
 */
async function nextEntry(
  input: Pick<LineInput, "next" | "lastShown">,
  queue: InputQueue,
  renderer: Renderer,
  prompt: string,
): Promise<Submitted | undefined> {
  const queued = queue.takeNext();
  if (queued) {
    renderer.userLine(queued.shown ?? queued.text);
    return queued;
  }
  const text = await input.next(prompt);
  if (text === undefined) return undefined;
  const shown = input.lastShown();
  return shown === undefined ? { text } : { text, shown };
}

/** A line's surroundings: the boundary, the input and its queue. */
interface LineContext extends ReplOptions {
  boundary: Boundary;
  input: Pick<LineInput, "busy" | "restore" | "fill" | "attention">;
  queue: InputQueue;
  questions: TerminalQuestions | undefined;
}

/** Runs one line of input behind the boundary: a slash command, a `!` command, or a task. */
async function runLine(line: Submitted, options: LineContext): Promise<CommandOutcome> {
  const { app, renderer, boundary } = options;
  const text = line.text;
  if (isShellLine(text)) {
    return await boundary.run(async (signal) => {
      if (!await runShellLine(text, { agent: app.agent, renderer, signal })) boundary.fail();
    });
  }
  const taskContext: TaskContext = {
    agent: app.agent,
    renderer,
    boundary,
    input: options.input,
    queue: options.queue,
    workspace: app.workspace,
    ...(options.questions ? { answer: (line: string) => options.questions!.answer(line) } : {}),
  };
  if (!text.startsWith("/")) {
    await runTask(line, taskContext);
    return options.input.attention(TASK_ENDED);
  }
  const found = findCommand(commandTable(app), text);
  if (!found) return renderer.say(unknownCommand(text));
  if (found.command.task) {
    await runCommandTask(found.command, found.args, line, { ...options, taskContext });
    return options.input.attention(TASK_ENDED);
  }
  const setInput = (text: string) => options.input.fill(text);
  return await boundary.run((signal) =>
    found.command.run({ app, screen: renderer, signal, setInput }, found.args)
  );
}

/**
 * Runs a command that is a task as a typed task is run, within its limits; the line as typed
 * is what the terminal and the history show of it.
 */
async function runCommandTask(
  command: Command,
  args: string,
  line: Submitted,
  options: LineContext & { taskContext: TaskContext },
): Promise<void> {
  const { app, renderer, boundary } = options;
  let task;
  try {
    task = await command.task?.({ app }, args);
  } catch (error) {
    renderer.failure(error instanceof Error ? error.message : String(error));
    return boundary.fail();
  }
  if (!task) return;
  const limits = task.limits;
  await runTask({ text: task.text, shown: line.shown ?? line.text }, {
    ...options.taskContext,
    ...(limits ? { around: (work) => app.taskScope.during(limits, app, work) } : {}),
  });
}

/**
 * The line input: Ctrl+C aborts running work (dropping keys typed ahead), clears typed
 * text, or at an empty prompt hints and then, pressed again, exits; Ctrl+Z erases the live
 * rows, which `fg` draws again under the running line.
 */
async function openInput(
  options: ReplOptions,
  { boundary, queue, running }: { boundary: Boundary; queue: InputQueue; running: Running },
): Promise<
  Pick<
    LineInput,
    | "next"
    | "close"
    | "lastShown"
    | "busy"
    | "restore"
    | "fill"
    | "notice"
    | "announce"
    | "attention"
  >
> {
  const { renderer, terminal, editor } = options;
  // Tab offers the commands of the first session (custom commands are the run's).
  const commands = commandTable(options.app);
  let exitArmed = false;
  let opened: LineInput | undefined;
  const input = opened = await openLineInput({
    terminal,
    history: options.app.agent.view.history.flatMap((message) =>
      message.role === "user" && !isNote(message.content)
        ? [withoutAttachments(message.content)]
        : []
    ).reverse(),
    onInterrupt: () => {
      const input = opened;
      if (boundary.busy) {
        // Ctrl+C drops what was typed and queued meanwhile; Esc gives it back.
        input?.discardQueued();
        queue.takeAll();
        return boundary.abort();
      }
      if (!input) return;
      if (input.pendingText() !== "") return input.clearLine();
      if (exitArmed || !terminal) return input.close();
      exitArmed = true;
      input.notice(renderer.dim("(press Ctrl+C again to exit, or type /help)"));
    },
    write: (text) => renderer.line(text.replace(/\n$/, "")),
    onShiftTab: () => {
      const mode = options.app.permissions.cycle();
      // While a task runs the status line shows the mode; at the prompt a line says it.
      if (!boundary.busy) opened?.notice(renderer.dim(`approval mode ${mode} (Shift+Tab cycles)`));
    },
    ...(editor
      ? {
        editor: {
          ...editor,
          complete: createCompleter({
            commands: commands.map((command) => command.name),
            commandArguments: (name) =>
              commands.find((command) => command.name === name)?.complete?.(options, "") ?? [],
            ...(editor.listDir ? { listDir: editor.listDir } : {}),
          }),
          palette: () => commandTable(options.app),
          live: {
            suspend: () => renderer.suspend(),
            resume: () => renderer.resume(running.line),
          },
          attention: options.app.settings.notifications,
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
    lastShown: () => input.lastShown(),
    busy: (handlers) => input.busy(handlers),
    restore: (text) => input.restore(text),
    fill: (text) => input.fill(text),
    notice: (text) => input.notice(text),
    announce: (text) => input.announce(text),
    attention: (text) => input.attention(text),
  };
}
