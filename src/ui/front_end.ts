/**
 * The one front end: the output for this process (on a terminal a live view with a
 * status line and the answer laid out as markdown, in colour unless NO_COLOR, redrawn on
 * resize; otherwise plain lines, to stderr besides the answer for -p), the renderer on it,
 * the redactor threaded through both, and the renderer listening to the agent.
 *
 * @module
 */
import type { Redactor } from "../config/mod.ts";
import type { EventSink, SpendReport, TodoItem } from "../core/mod.ts";
import { terminalColumns, terminalRows, writeTo } from "../terminal/mod.ts";
import { PlainOutput } from "./plain_output.ts";
import { type ContextUse, Renderer } from "./renderer.ts";
import type { TaskOutput } from "./task_output.ts";

/** How {@linkcode createFrontEnd} presents a run. */
export interface FrontEndOptions {
  /** The approval mode now, for the status line (shown unless `auto`). */
  approval?: () => string;
  /** Draw the live view: stdout is a terminal and the run is interactive. */
  screen: boolean;
  color: boolean;
  /** A REPL (the answer streams, lines go to stdout) rather than -p (lines go to stderr). */
  interactive: boolean;
  /** The key and URL credentials never reach the terminal. */
  redactor: Redactor;
  /** Keep every row of a reasoning model's thinking on screen. */
  fullReasoning: boolean;
  /** The model's name, or the profile's label read at each task, for the status line. */
  model: string | (() => string);
}

/** What the front end watches: the agent's events and its context use. */
export interface Watched {
  subscribe(listener: EventSink): () => void;
  context(): ContextUse;
  /** What the last task and the session spent, when counted. */
  spend?(): SpendReport | undefined;
  /** Whether plan mode is on. */
  readonly planMode?: boolean;
  /** The session's todo list, once there is one. */
  readonly todo?: readonly TodoItem[] | undefined;
}

/**
 * Builds the output and the renderer for `agent` and subscribes the renderer to it.
 * Contract: every event and line reaches this process's stdout or stderr redacted; text
 * held back for redaction goes out before a task's last output.
 */
export async function createFrontEnd(
  agent: Watched,
  options: FrontEndOptions,
): Promise<Renderer> {
  const { redactor, screen } = options;
  const renderer = new Renderer({
    output: await createOutput(options),
    color: options.color,
    streamAnswer: options.interactive,
    model: options.model,
    context: () => agent.context(),
    spend: () => agent.spend?.(),
    work: () => ({
      planMode: agent.planMode ?? false,
      todo: agent.todo,
      ...(options.approval ? { approval: options.approval() } : {}),
    }),
    // On a terminal the view lays out the answer itself, so it gets the answer redacted too.
    filter: (render) => redactor.events(render, { streamText: screen }),
  });
  agent.subscribe(renderer.sink);
  return renderer;
}

async function createOutput(options: FrontEndOptions): Promise<TaskOutput> {
  const { redactor } = options;
  if (!options.screen) {
    return new PlainOutput({
      answer: redactor.streaming(writeTo(Deno.stdout)),
      status: redactor.wrap(writeTo(options.interactive ? Deno.stdout : Deno.stderr)),
    });
  }
  // The live view (markdown, status line) loads only on a terminal.
  const { TaskView } = await import("./task_view.ts");
  const view = new TaskView({
    io: {
      write: redactor.wrap(writeTo(Deno.stdout)),
      columns: terminalColumns,
      rows: terminalRows,
    },
    color: options.color,
    // NO_COLOR means no colour, not no layout: headings, lists, tables and word wrap stay.
    markdown: true,
    reasoning: options.fullReasoning ? "full" : "collapsed",
  });
  Deno.addSignalListener("SIGWINCH", () => view.resize());
  return view;
}
