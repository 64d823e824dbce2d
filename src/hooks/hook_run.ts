/**
 * Runs one hook command the way the bash tool runs a command (the same sandbox, roots,
 * network rules, masks and cleared environment), the event as JSON on its stdin, and reads
 * what it decided.
 *
 * @module
 */
import { isObject } from "../core/mod.ts";
import type { CommandRunner } from "../sandbox/mod.ts";
import type { HookCommand } from "../settings/mod.ts";

/** How a hook ended, as powercode acts on it. */
export type HookOutcome =
  /** Exit 0 and no block: its output (stdout and stderr), trimmed. */
  | { kind: "pass"; output: string }
  /** Exit 2, or `{"decision": "block", "reason": …}` on stdout. */
  | { kind: "block"; reason: string }
  /** Any other end (exit code, timeout, no sandbox): one line for the user. */
  | { kind: "failed"; line: string };

/** Where the input's heredoc ends; JSON on one line never equals it. */
const INPUT_END = "POWERCODE_HOOK_INPUT";
/** The widest command shown in a hook's line. */
const SHOWN_COMMAND = 32;
/** The widest reason shown in a hook's line. */
const SHOWN_REASON = 60;

/**
 * Runs `hook` with `input` as JSON on its stdin.
 * Contract: never throws; a hook that fails, times out or cannot start is `failed` with a
 * one-line reason naming it.
 */
export async function runHook(
  runner: CommandRunner,
  hook: HookCommand,
  options: { input: Record<string, unknown>; signal: AbortSignal },
): Promise<HookOutcome> {
  const script = `(\n${hook.command}\n) <<'${INPUT_END}'\n${
    JSON.stringify(options.input)
  }\n${INPUT_END}\n`;
  const failed = (why: string): HookOutcome => ({
    kind: "failed",
    line: `${hook.event} hook "${shorten(hook.command, SHOWN_COMMAND)}" ${
      shorten(why, SHOWN_REASON)
    }; going on`,
  });
  let result;
  try {
    result = await runner.run(script, { timeoutMs: hook.timeoutMs, signal: options.signal });
  } catch (error) {
    return failed(`did not run: ${error instanceof Error ? error.message : String(error)}`);
  }
  const output = result.output.text.trim();
  switch (result.end.kind) {
    case "aborted":
      return failed("was interrupted");
    case "timeout":
      return failed(`took longer than ${result.end.timeoutMs / 1000} s and was stopped`);
    case "exit":
      break;
    default:
      result.end satisfies never;
  }
  const { code } = result.end;
  if (code === 2) return { kind: "block", reason: output || "blocked by a hook" };
  if (code !== 0) return failed(`failed (exit ${code})${output ? `: ${firstLine(output)}` : ""}`);
  const decision = blockDecision(output);
  return decision === undefined ? { kind: "pass", output } : { kind: "block", reason: decision };
}

/** The reason of a `{"decision": "block"}` answer on the output's last line, if it is one. */
function blockDecision(output: string): string | undefined {
  const last = output.split("\n").at(-1) ?? "";
  if (!last.startsWith("{")) return undefined;
  try {
    const answer: unknown = JSON.parse(last);
    if (!isObject(answer) || answer.decision !== "block") return undefined;
    return typeof answer.reason === "string" && answer.reason !== ""
      ? answer.reason
      : "blocked by a hook";
  } catch {
    return undefined;
  }
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? "";
}

function shorten(text: string, width: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}
