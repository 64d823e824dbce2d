/**
 * powercode's REPL in a tmux pane, started through `deno task start` (the real permission set).
 *
 * @module
 */
import { childEnv, type TempProject } from "./project.ts";
import { ENV } from "./sessions.ts";
import { startTmux, type TmuxPane } from "./tmux.ts";

/** The REPL's prompt. */
export const PROMPT = "> ";

/** How {@linkcode startInTmux} starts powercode. */
export interface PaneOptions {
  /** Added to the environment (which has no NO_COLOR unless given here). */
  env?: Record<string, string>;
  /** powercode's arguments. */
  args?: string[];
  columns?: number;
  rows?: number;
  /** The first prompt to wait for (default {@linkcode PROMPT}; `plan > ` in plan mode). */
  prompt?: string;
}

/** Starts `deno task start` in a tmux pane and waits for its first prompt. */
export async function startInTmux(
  project: TempProject,
  options: PaneOptions = {},
): Promise<TmuxPane> {
  const pane = await startTmux({
    cwd: project.dir,
    command: ["deno task --quiet start", ...options.args ?? []].join(" "),
    env: { ...withoutNoColor(childEnv(ENV)), TERM: "xterm-256color", ...options.env },
    ...(options.columns ? { columns: options.columns } : {}),
    ...(options.rows ? { rows: options.rows } : {}),
  });
  try {
    await waitForPrompt(pane, "the first prompt", options.prompt);
    return pane;
  } catch (error) {
    await pane[Symbol.asyncDispose]();
    throw error;
  }
}

/** `env` without NO_COLOR, for panes that must show colours. */
export function withoutNoColor(env: Record<string, string>): Record<string, string> {
  const { NO_COLOR: _, ...rest } = env;
  return rest;
}

/** The non-empty lines of a screen. */
export function screenLines(screen: string): string[] {
  return screen.split("\n").map((line) => line.trimEnd()).filter((line) => line !== "");
}

/** Waits until the last line of the pane is an empty prompt (`prompt`, by default `> `). */
export async function waitForPrompt(
  pane: TmuxPane,
  what = "the prompt",
  prompt = PROMPT,
): Promise<string> {
  return await pane.waitFor((screen) => screenLines(screen).at(-1) === prompt.trim(), what);
}

/** Types a task and presses Enter. */
export async function typeTask(pane: TmuxPane, task: string): Promise<void> {
  await pane.type(task);
  await pane.keys("Enter");
}
