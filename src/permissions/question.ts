/**
 * What powercode asks the user before a call runs, the answers, and the report of a
 * preview; the front end that can ask implements {@linkcode Asker}.
 *
 * @module
 */

/** A call waiting for the user. */
export interface Question {
  /** The tool's name (the bash tool, write_file, an MCP tool). */
  tool: string;
  /** What it would do: the command line, or the paths it writes. */
  subject: string;
  /** Why it asks (the mode, or the rule). */
  why: string;
  /** What a command asks for beyond the sandbox and no rule covers (`network to x`). */
  needs?: string;
  /** The rules an "always" answer saves, shown before they are saved. */
  rules: string[];
  /** What an "always" answer saves when it is no rule (a host for `network.allow`). */
  saves?: string;
  /** Whether "preview" is offered (a sandboxed command with undo snapshots). */
  canPreview: boolean;
  /** Whether the project's settings file may take the rule (project mode). */
  projectFile: boolean;
}

/** The user's answer. */
export type Answer =
  | { kind: "yes" }
  | { kind: "always"; where: "user" | "project" }
  | { kind: "no"; reason: string }
  | { kind: "preview" };

/** One file a previewed command changed. */
export interface PreviewChange {
  path: string;
  kind: "created" | "changed" | "deleted";
  /** The diff's lines (`-old`, `+new`), empty for what is not text. */
  diff: string[];
}

/** What a previewed command did, for the user to keep or revert. */
export interface PreviewReport {
  command: string;
  /** `exit 0`, `timed out`, … */
  end: string;
  changes: PreviewChange[];
  /** Hosts it tried to reach (every connection is refused during a preview). */
  hosts: string[];
}

/** Asks the user; a front end that cannot (print mode, piped input) has none. */
export interface Asker {
  /** Contract: rejects when `signal` aborts (Ctrl+C); then the call does not run. */
  ask(question: Question, signal: AbortSignal): Promise<Answer>;
  /** Keep or revert what a previewed command did. */
  review(report: PreviewReport, signal: AbortSignal): Promise<"keep" | "revert">;
}

/** The answer as one line, for the session and stream-json. */
export function answerText(answer: Answer): string {
  switch (answer.kind) {
    case "yes":
    case "preview":
      return answer.kind;
    case "always":
      return `always (${answer.where} settings)`;
    case "no":
      return answer.reason === "" ? "no" : `no: ${answer.reason}`;
    default: {
      const never: never = answer;
      return never;
    }
  }
}
