/**
 * The REPL driven in-process: the real `runRepl` over an assembled agent with a scripted
 * model, keys typed into a fake terminal, and the task view drawing on the same virtual
 * screen, so a test reads what a user at an 80x24 terminal would see.
 *
 * @module
 */
import { type App, assemble, type RunStart } from "../../src/app/mod.ts";
import type { ApprovalSetup, AssembleOptions } from "../../src/app/assemble.ts";
import { Redactor } from "../../src/config/mod.ts";
import type { Pricing } from "../../src/core/mod.ts";
import { listWorkspaceDir } from "../../src/modes/completion_listing.ts";
import { runRepl } from "../../src/modes/repl.ts";
import { SessionStore } from "../../src/session/mod.ts";
import type { Terminal } from "../../src/terminal/mod.ts";
import { Renderer } from "../../src/ui/renderer.ts";
import { TaskView } from "../../src/ui/task_view.ts";
import { fakeTerminal, settle } from "./fake_terminal.ts";
import { ScriptedModel } from "./scripted_model.ts";
import type { ScriptStep } from "./scripts.ts";
import { NO_SETTINGS, type NotificationStyle } from "../../src/settings/mod.ts";

/** A running REPL: type keys, read the screen, end it. */
export interface ReplDouble {
  /** The workspace the agent works in. */
  workspace: string;
  /** The temporary directory holding the workspace and the state. */
  dir: string;
  /** Sends keys and waits until the REPL has handled them. */
  type(text: string): Promise<void>;
  /** Waits until `predicate` holds for the screen's rows (2 s at most). */
  until(predicate: (lines: string[]) => boolean, what: string): Promise<void>;
  /** The screen's rows, trailing spaces and empty rows removed. */
  lines(): string[];
  /** Everything written to the terminal so far, as one string. */
  written(): string;
  /** The model's requests so far. */
  model: ScriptedModel;
  /** Ends the input (Ctrl+D at an empty prompt) and waits for the exit code. */
  end(): Promise<number>;
}

/** Options of {@linkcode openReplDouble}. */
export interface ReplDoubleOptions {
  /** Snapshots around tasks (default on). */
  undo?: boolean;
  width?: number;
  height?: number;
  /** The approval mode and rules (default auto, no rules); files relative to the temp dir. */
  approval?: (dir: string) => ApprovalSetup;
  /** Prices of the model, so that `/cost` shows costs. */
  pricing?: Pricing;
  /** Files written into the workspace before the agent is assembled (path: text). */
  files?: Record<string, string>;
  /**
   * Assemble options over the defaults, given the temp dir; with `config` or `providers`
   * requests go through the real chat client to that endpoint instead of the scripted model.
   */
  assemble?: (dir: string) => Partial<AssembleOptions>;
  /** Use this directory (workspace/ and state/ in it) and leave it at `end()`: a resumed run. */
  dir?: string;
  /** What Ctrl+Z runs to stop the program (resolving is `fg`); Ctrl+Z does nothing without. */
  stopProgram?: () => Promise<void>;
  /** Tab completes paths in the workspace, as the program's own listing does. */
  listPaths?: boolean;
  /** The settings' `notifications` (default: as without a settings file). */
  notifications?: NotificationStyle;
}

/** Starts the REPL over a temporary workspace; `end()` also removes it. */
export async function openReplDouble(
  steps: ScriptStep[],
  options: ReplDoubleOptions = {},
): Promise<ReplDouble> {
  const dir = options.dir ?? await Deno.makeTempDir({ prefix: "powercode-repl-" });
  const workspace = `${dir}/workspace`;
  await Deno.mkdir(workspace, { recursive: true });
  for (const [path, text] of Object.entries(options.files ?? {})) {
    await Deno.writeTextFile(`${workspace}/${path}`, text);
  }
  const extra = options.assemble?.(dir) ?? {};
  const endpoint = extra.config !== undefined || extra.providers !== undefined;
  const fake = fakeTerminal(options.width ?? 80, options.height ?? 24);
  const model = new ScriptedModel(steps);
  const sessions = new SessionStore(`${dir}/state/sessions`);
  const assembly = await assemble({
    config: {
      baseURL: "http://127.0.0.1:9/v1",
      apiKey: "k",
      model: "m",
      contextWindow: 32000,
      ...(options.pricing ? { pricing: options.pricing } : {}),
    },
    workspaceDir: workspace,
    maxSteps: 5,
    ...(endpoint ? {} : { model }),
    store: sessions,
    ...(options.undo === false ? {} : { undo: { dir: `${dir}/state/snapshots` } }),
    ...(options.approval ? { approval: options.approval(dir) } : {}),
    ...extra,
  });
  const view = new TaskView({
    io: { write: fake.io.write, columns: fake.io.columns, rows: () => fake.screen.height },
    color: false,
    markdown: true,
  });
  const renderer = new Renderer({
    output: view,
    color: false,
    streamAnswer: true,
    model: "m",
    context: () => assembly.agent.context(),
  });
  assembly.agent.subscribe(renderer.sink);
  const app: App = {
    ...assembly,
    start: {} as RunStart,
    settings: {
      ...NO_SETTINGS,
      ...(options.notifications ? { notifications: options.notifications } : {}),
    },
    sessions,
    redactor: new Redactor([]),
    notice: () => {},
    piped: "",
    interactive: true,
    terminal: true,
    color: false,
    describeScope: () => Promise.resolve("scope of the double"),
    [Symbol.asyncDispose]: () => Promise.resolve(),
  };
  const terminal: Terminal = {
    ...fake.io,
    onResize: () => () => {},
    suspend: (stop) => stop(),
    close: () => {},
  };
  const editor = {
    color: false,
    terminal,
    ...(options.stopProgram ? { stopProgram: options.stopProgram } : {}),
    ...(options.listPaths ? { listDir: listWorkspaceDir(assembly.workspace) } : {}),
  };
  const exit = runRepl({ app, renderer, terminal: true, editor });
  await settle();
  const lines = () => fake.lines();
  return {
    workspace,
    dir,
    model,
    type: (text) => fake.type(text),
    lines,
    written: () => fake.writes.join(""),
    async until(predicate, what) {
      const deadline = Date.now() + 2000;
      while (!predicate(lines())) {
        if (Date.now() > deadline) {
          throw new Error(`Timed out waiting for ${what}; the screen:\n${lines().join("\n")}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async end() {
      fake.end();
      try {
        return await exit;
      } finally {
        assembly.agent.close();
        await assembly.mcp?.close();
        if (options.dir === undefined) await Deno.remove(dir, { recursive: true });
      }
    },
  };
}
