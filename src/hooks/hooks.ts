/**
 * The user's hooks of a run: which commands match an event, what they are given on stdin,
 * and what their answers do to the task. Every hook runs through the bash tool's runner,
 * inside the sandbox.
 *
 * @module
 */
import type { PromptVerdict, SessionSource, TaskHooks } from "../agent/mod.ts";
import type { CommandRunner } from "../sandbox/mod.ts";
import type { HookCommand, HookEvent, Sourced } from "../settings/mod.ts";
import {
  type RunTool,
  type ToolOutput,
  type ToolPolicy,
  type ToolRequest,
  USER_COMMAND_ID,
} from "../tools/mod.ts";
import type { HookOutcome } from "./hook_run.ts";

/** Longest string of a tool's input or response passed to a hook (the rest is cut). */
const INPUT_STRING_CHARS = 8_000;
const RESPONSE_CHARS = 16_000;

/** What the hooks work with. */
export interface HooksSetup {
  /** The bash tool's runner (the sandbox); undefined: no hook can run, each says so once. */
  runner: CommandRunner | undefined;
  /** The current session's id, for `session_id`. */
  sessionId: () => string | undefined;
  /** The first root, for `cwd`. */
  cwd: string;
  /** Shows one line to the user (a failed or slow hook). */
  warn: (line: string) => void;
}

/**
 * The hooks of the settings files, by event.
 * Contract: never throws for a hook; a hook that fails or is slow shows one line through
 * `warn` and the task goes on as without it.
 */
export class Hooks implements TaskHooks {
  #hooks: readonly HookCommand[];
  #setup: HooksSetup;

  /** Hooks of `entries` (from settings), run as `setup` says. */
  constructor(entries: readonly Sourced<HookCommand>[], setup: HooksSetup) {
    this.#hooks = entries.map((entry) => entry.value);
    this.#setup = setup;
  }

  /**
   * The policy of `PreToolUse` and `PostToolUse`: a blocking `PreToolUse` hook refuses the
   * call with its reason; the output of `PostToolUse` hooks follows the tool's result. A
   * command the user typed (`!cmd`) runs no hook: hooks watch the model's calls.
   */
  policy(): ToolPolicy {
    return async (request) => {
      if (request.id === USER_COMMAND_ID) return { kind: "allow" };
      const signal = request.signal ?? new AbortController().signal;
      const input = { "tool_name": request.name, "tool_input": request.args };
      for (const outcome of await this.#run("PreToolUse", request.name, input, signal)) {
        if (outcome.kind === "block") return { kind: "refuse", reason: outcome.reason };
      }
      if (!this.#matching("PostToolUse", request.name).length) return { kind: "allow" };
      return { kind: "allow", around: (run) => this.#after(request, run, signal) };
    };
  }

  async promptSubmitted(prompt: string, signal: AbortSignal): Promise<PromptVerdict> {
    const context: string[] = [];
    for (const outcome of await this.#run("UserPromptSubmit", undefined, { prompt }, signal)) {
      if (outcome.kind === "block") return { kind: "block", reason: outcome.reason };
      if (outcome.kind === "pass" && outcome.output !== "") context.push(outcome.output);
    }
    return { kind: "go", context };
  }

  async sessionStarted(source: SessionSource, signal: AbortSignal): Promise<string[]> {
    const outcomes = await this.#run("SessionStart", source, { source }, signal);
    return outcomes.flatMap((o) => o.kind === "pass" && o.output !== "" ? [o.output] : []);
  }

  async stopping(again: boolean, signal: AbortSignal): Promise<string | undefined> {
    const input = { "stop_hook_active": again };
    for (const outcome of await this.#run("Stop", undefined, input, signal)) {
      if (outcome.kind === "block") return outcome.reason;
    }
    return undefined;
  }

  async compacting(signal: AbortSignal, trigger: "manual" | "auto"): Promise<void> {
    await this.#run("PreCompact", trigger, { trigger }, signal);
  }

  /**
   * Runs the `Notification` hooks with `message` (a question waits for the user) without
   * waiting for them.
   */
  notify(message: string): void {
    void this.#run("Notification", undefined, { message }, new AbortController().signal);
  }

  /** Runs the tool, then the matching `PostToolUse` hooks; their output follows the result. */
  async #after(request: ToolRequest, run: RunTool, signal: AbortSignal): Promise<ToolOutput> {
    const output = await run();
    const input = {
      "tool_name": request.name,
      "tool_input": request.args,
      "tool_response": cut(output.content, RESPONSE_CHARS),
    };
    const added = (await this.#run("PostToolUse", request.name, input, signal)).flatMap((o) => {
      if (o.kind === "block") return [o.reason];
      return o.kind === "pass" && o.output !== "" ? [o.output] : [];
    });
    if (added.length === 0) return output;
    const note = added.map((text) => `[PostToolUse hook]\n${text}`).join("\n");
    return { ...output, content: `${output.content}\n${note}` };
  }

  /** Runs the hooks of `event` whose matcher takes `subject`, one after another. */
  async #run(
    event: HookEvent,
    subject: string | undefined,
    fields: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<HookOutcome[]> {
    const hooks = this.#matching(event, subject);
    if (hooks.length === 0) return [];
    const { runner, sessionId, cwd, warn } = this.#setup;
    const input = {
      "session_id": sessionId() ?? "",
      cwd,
      "hook_event_name": event,
      ...limitInput(fields),
    };
    const outcomes: HookOutcome[] = [];
    // The hook runner loads when a hook first matches: a run without hooks never needs it.
    const { runHook } = await import("./hook_run.ts");
    for (const hook of hooks) {
      const outcome: HookOutcome = runner
        ? await runHook(runner, hook, { input, signal })
        : { kind: "failed", line: `${event} hook did not run: this run has no bash tool` };
      if (outcome.kind === "failed") warn(outcome.line);
      outcomes.push(outcome);
    }
    return outcomes;
  }

  #matching(event: HookEvent, subject: string | undefined): HookCommand[] {
    return this.#hooks.filter((hook) =>
      hook.event === event &&
      (hook.matcher === undefined || subject === undefined ||
        new RegExp(`^(?:${hook.matcher})$`).test(subject))
    );
  }
}

/** `fields` with long strings of `tool_input` cut, so the input fits one argument. */
function limitInput(fields: Record<string, unknown>): Record<string, unknown> {
  const toolInput = fields.tool_input;
  if (typeof toolInput !== "object" || toolInput === null || Array.isArray(toolInput)) {
    return fields;
  }
  const limited = Object.fromEntries(
    Object.entries(toolInput).map((
      [key, value],
    ) => [key, typeof value === "string" ? cut(value, INPUT_STRING_CHARS) : value]),
  );
  return { ...fields, "tool_input": limited };
}

function cut(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars)}\n[cut at ${chars} characters]` : text;
}
