/**
 * What a tool call is and what it gave, as every layer sees it without knowing the tool:
 * the effect it declares, how its call is shown, and its result with a tagged payload the
 * terminal draws by kind.
 *
 * @module
 */
import type { MessageImage } from "./image.ts";
import type { TodoItem } from "./todo.ts";

/**
 * What a tool does to the world: reads the workspace, writes it, runs a program, keeps
 * track of the task in powercode's own file (`track`: the todo list's TODO.md, never a path
 * the model names), or reads from the network in powercode's process (`net`: changes no file).
 */
export type ToolEffect = "read" | "write" | "exec" | "track" | "net";

/** How a call is shown when it starts: the tool's own one-line text, or malformed arguments. */
export type CallDescription =
  | { kind: "text"; text: string }
  | { kind: "malformed" };

/** How a command ended. */
export type CommandEnd =
  | { kind: "exit"; code: number }
  | { kind: "timeout"; seconds: number }
  | { kind: "interrupted" };

/** What a successful call did, tagged by kind, for the terminal; never sent to the model. */
export type ToolDetails =
  | {
    kind: "read";
    path: string;
    /** The first and last line returned (0 and 0 for an empty file). */
    firstLine: number;
    lastLine: number;
    /** Lines in the file, when counted. */
    totalLines?: number;
  }
  | { kind: "write"; path: string; created: boolean; lines: number; bytes: number }
  | {
    kind: "edit";
    path: string;
    occurrences: number;
    /**
     * The whole lines of the file the first replacement changed and what they became, without
     * the lines both share at either end (the first few of each, and how many in all).
     */
    removed: string[];
    added: string[];
    removedCount: number;
    addedCount: number;
    /** The line number of the first removed line, which is also that of the first added one. */
    firstLine: number;
    /** A few unchanged lines before the change and after it, for context. */
    before: string[];
    after: string[];
  }
  | { kind: "command"; command: string; end: CommandEnd }
  /** The todo list as it is now, when the call changed it. */
  | { kind: "checklist"; items: TodoItem[] };

/** The outcome of one tool call, as recorded in history and shown on the terminal. */
export interface ToolResult {
  /** What the model reads. */
  content: string;
  /** A few words for the terminal, e.g. `1.2 KB`, `exit 0`. */
  summary: string;
  /** The call failed: refused, invalid, thrown, interrupted, or the command did not succeed. */
  isError: boolean;
  /** What the call did, when the tool says. */
  details?: ToolDetails;
  /** An image the call gave (read_file of a picture), for a model that takes images. */
  image?: MessageImage;
  /** The session file of the subagent that ran the call (the `task` tool), when saved. */
  session?: string;
}
