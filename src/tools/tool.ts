/**
 * What a tool is: its name, description, declared effect, how its arguments are declared and
 * checked, how a call is shown, the paths a call touches, and how it runs. The tool set
 * checks arguments once, with the tool's own parser, and they reach the tool typed.
 *
 * @module
 */
import type { MessageImage, ToolDetails, ToolEffect } from "../core/mod.ts";

/** Workspace paths a call reads or modifies, as the model named them. */
export interface ToolPaths {
  read?: string[];
  modified?: string[];
}

/** What a tool receives besides its arguments. */
export interface ToolContext {
  /** Aborted on Ctrl+C: the tool stops and kills what it started. */
  signal: AbortSignal;
  /** Live output for the terminal (a command's stdout and stderr); never what the model reads. */
  onOutput?: (text: string) => void;
  /** What the policy granted this call beyond the sandbox's settings (bash only). */
  grant?: CallGrant;
}

/**
 * More than the sandbox gives, for one call: what the user granted (`need_hosts`, the real
 * paths of `need_dirs`), or a preview's closed network; `onConnection` hears each connection.
 */
export interface CallGrant {
  hosts?: readonly string[];
  dirs?: readonly string[];
  offline?: boolean;
  onConnection?: (connection: { host: string; port: number; allowed: boolean }) => void;
}

/** What a tool returns: the text the model reads, a short summary and details for the terminal. */
export interface ToolOutput {
  content: string;
  /** e.g. `1.2 KB`, `exit 0`; shown after the ✓ or ✗ of the tool line. */
  summary: string;
  /** The call ran but did not succeed (a command's non-zero exit); thrown errors always are. */
  isError?: boolean;
  details?: ToolDetails;
  /** An image for the model; the agent sends it after the results, or refuses the call. */
  image?: MessageImage;
  /** The session file of the subagent that ran the call, when it was saved. */
  session?: string;
}

/** Checked arguments, or a one-line problem naming the argument. */
export type CheckedArguments<A> = { ok: true; args: A } | { ok: false; problem: string };

/**
 * How a tool's arguments are declared and checked: the JSON schema the model reads and the
 * parser of the arguments object it writes. Typed parameters give both (`defineParams`); a
 * tool discovered at run time brings its server's schema and a parser of its own.
 */
export interface ToolParameters<A> {
  /** The JSON schema of the arguments object, sent as it is. */
  schema: Record<string, unknown>;
  /** Contract: pure and never throws; the problem is shown to the model. */
  parse(args: Record<string, unknown>): CheckedArguments<A>;
}

/**
 * One tool. The name the model sees is its file name.
 * Contract: `describe`, `paths` and `execute` receive only arguments its parser accepted;
 * `execute` reports failure by throwing an Error whose message the model can act on.
 */
export interface Tool<A = unknown> {
  name: string;
  description: string;
  /** What a call does, for the policy that decides whether it may run. */
  effect: ToolEffect;
  /**
   * An `exec` tool that says it changes nothing (an MCP tool's `readOnlyHint`): plan mode lets
   * it run. Undo still scans after it, as after any `exec` call.
   */
  readOnly?: boolean;
  /**
   * Calls of it next to each other in one reply run at the same time, a few at once (the
   * `task` tool, whose children wait on the model); their results keep the calls' order.
   */
  concurrent?: boolean;
  parameters: ToolParameters<A>;
  /** A line of the system prompt on using the tool, when it needs one. */
  guidance?: string;
  /** The text after the tool's name when a call starts: a path, a command (may be long). */
  describe(args: A): string;
  /** The paths a call reads or modifies, for the session's file lists and the policy. */
  paths?(args: A): ToolPaths;
  execute(args: A, context: ToolContext): Promise<ToolOutput>;
}
