/**
 * The `bash` tool: one shell command in the workspace, through a {@linkcode CommandRunner}.
 *
 * @module
 */
import { type CommandEnd, type HostPattern, parseHostPattern, type ToolCall } from "../core/mod.ts";
import { type ArgsOf, defineParams, type Params } from "./params.ts";
import type { CallGrant, Tool } from "./tool.ts";
import type {
  BackgroundJobs,
  CommandRunner,
  NetConnection,
  RunEnd,
  RunGrant,
} from "../sandbox/mod.ts";
import { MAX_BYTES, MAX_LINES } from "../core/mod.ts";

/** Timeout when the model gives none. */
export const DEFAULT_TIMEOUT_SECONDS = 120;
/** Longest timeout the model may ask for. */
export const MAX_TIMEOUT_SECONDS = 600;

const GIT_NOTE = " Every .git and git directory is read-only (git status, diff and log work; " +
  "commit fails) and repositories a command makes are renamed after it; ask the user to commit.";

const BASH_PARAMS = {
  command: {
    type: "string",
    description: "The command, run as `bash -c COMMAND` with the workspace root as the " +
      "current directory",
  },
  timeout_seconds: {
    type: "integer",
    description: `Seconds before the command is killed (default ${DEFAULT_TIMEOUT_SECONDS}, ` +
      `maximum ${MAX_TIMEOUT_SECONDS})`,
    optional: true,
  },
  background: {
    type: "boolean",
    description: "Start the command in the background and return its id at once (a dev " +
      "server, a watcher, a slow build): read what it prints with bash_output, end it with " +
      "bash_kill; no timeout applies, and it ends when powercode ends",
    optional: true,
  },
  need_hosts: {
    type: "string[]",
    description: "Hosts this command must reach that the sandbox does not allow (e.g. " +
      '["registry.npmjs.org"]; "host:port" for one port): the user is asked once, and only ' +
      "this command gets them, through the proxy",
    optional: true,
  },
  need_dirs: {
    type: "string[]",
    description: "Absolute directories outside the workspace this command must write (e.g. a " +
      "cache): the user is asked once, and only this command gets them writable",
    optional: true,
  },
} as const satisfies Params;

/** The bash tool's name, for the rules that read its commands (`bash(git push *)`). */
export const BASH_TOOL = "bash";

/** The id of a call the user typed (`!cmd`): the user's own command, never asked about. */
export const USER_COMMAND_ID = "user-command";

/**
 * A call of the bash tool for `command` typed by the user (`!cmd` at the prompt), with the
 * longest timeout the tool allows, so that it runs exactly as a call of the model's would.
 */
export function userCommandCall(id: string, command: string): ToolCall {
  return {
    id,
    name: BASH_TOOL,
    arguments: JSON.stringify({ command, timeout_seconds: MAX_TIMEOUT_SECONDS }),
  };
}

/**
 * Creates the `bash` tool running commands through `runner`.
 * Contract: the content is the output (with a note when cut), then the entries the git rule
 * renamed after the command (if any), then a last line `exit code N`, `timed out after N s;
 * ...` or `interrupted; ...`;
 * the summary is `exit N`, `timed out` or `interrupted`. A command that did not exit 0 is an
 * error result (the model reads its output as it is). Throws when the runner refuses
 * (bubblewrap missing) or the arguments are out of range.
 */
export function createBashTool(
  runner: CommandRunner,
  jobs?: Pick<BackgroundJobs, "start">,
): Tool<ArgsOf<typeof BASH_PARAMS>> {
  // As created (plan mode's switches leave the definitions as they are), but for the mode.
  const { gitControl, workspace, hosts } = runner;
  return {
    name: BASH_TOOL,
    effect: "exec",
    // Read at each request: "disabled" once the probe (at the first command) finds no bwrap.
    get description() {
      return describeTool({
        mode: runner.mode,
        gitControl,
        workspace,
        ...(hosts ? { hosts } : {}),
      });
    },
    parameters: defineParams(BASH_PARAMS),
    guidance: "After changing code, run commands with bash to verify that it works (bash runs " +
      (runner.hosts?.length
        ? "sandboxed, with network only to the allowed hosts)."
        : "sandboxed, without network access)."),
    describe: ({ command, background }) => background ? `${command} &` : command,
    async execute(args, { signal, onOutput, grant }) {
      const { command, timeout_seconds: seconds = DEFAULT_TIMEOUT_SECONDS } = args;
      if (command.trim() === "") throw new TypeError("Cannot run bash: command is empty");
      const needs = (args.need_hosts?.length ?? 0) + (args.need_dirs?.length ?? 0) > 0;
      if (needs && (args.background || grant === undefined)) {
        throw new Error(
          "Cannot run bash: need_hosts and need_dirs " +
            (args.background
              ? "do not apply to a background command"
              : "need the user's answer, and nobody can give it here"),
        );
      }
      if (args.background) return await startBackground(command, args, jobs);
      if (seconds < 1 || seconds > MAX_TIMEOUT_SECONDS) {
        throw new RangeError(
          `Cannot run bash: timeout_seconds must be an integer from 1 to ${MAX_TIMEOUT_SECONDS}, ` +
            `got ${JSON.stringify(seconds)}`,
        );
      }
      const { output, end, gitNotes = [], connections = [] } = await runner.run(command, {
        timeoutMs: seconds * 1000,
        signal,
        ...(onOutput ? { onOutput } : {}),
        ...(grant ? { grant: runGrant(grant) } : {}),
      });
      const parts = output.note === "" ? [] : [output.note, ""];
      parts.push(output.text === "" ? "(no output)" : output.text.replace(/\n$/, ""));
      parts.push(...gitLines(gitNotes), ...networkLines(connections), endLine(end));
      return {
        content: parts.join("\n"),
        summary: endSummary(end),
        isError: end.kind !== "exit" || end.code !== 0,
        details: { kind: "command", command, end: commandEnd(end) },
      };
    },
  };
}

/** The sandbox's form of what the policy granted (host entries parsed). */
function runGrant(grant: CallGrant): RunGrant {
  const hosts = (grant.hosts ?? []).map((entry) => {
    const pattern = parseHostPattern(entry);
    if (typeof pattern === "string") {
      throw new TypeError(`Cannot run bash: need_hosts entry "${entry}" ${pattern}`);
    }
    return pattern;
  });
  return {
    ...(hosts.length > 0 ? { hosts: hosts satisfies HostPattern[] } : {}),
    ...(grant.dirs ? { dirs: grant.dirs } : {}),
    ...(grant.offline ? { offline: true } : {}),
    ...(grant.onConnection ? { onConnection: grant.onConnection } : {}),
  };
}

/** Starts `command` as a background job; its id at once. */
async function startBackground(
  command: string,
  args: { timeout_seconds?: number },
  jobs: Pick<BackgroundJobs, "start"> | undefined,
) {
  if (args.timeout_seconds !== undefined) {
    throw new TypeError(
      "Cannot run bash: timeout_seconds does not apply to a background command (it runs " +
        "until it ends or bash_kill ends it); leave it out",
    );
  }
  if (!jobs) throw new Error("Cannot run bash: background commands are not available here");
  const job = await jobs.start(command);
  return {
    content: `Started background command ${job.id}: ${command}\nRead what it prints with ` +
      `bash_output (id "${job.id}"); end it with bash_kill (id "${job.id}").`,
    summary: `background ${job.id}`,
  };
}

/** What the model reads about entries renamed under the git rule after its command. */
function gitLines(notes: readonly string[]): string[] {
  if (notes.length === 0) return [];
  return [
    "",
    "powercode changed what this command made that git would take as a repository: git runs " +
    "a repository's hooks and config outside the sandbox. Ask the user to create repositories.",
    ...notes,
  ];
}

/**
 * What the model reads (and the session keeps) of the connections a command asked for: one
 * line per host, port and answer, with a count.
 */
function networkLines(connections: readonly NetConnection[]): string[] {
  if (connections.length === 0) return [];
  const counts = new Map<string, number>();
  for (const { host, port, allowed } of connections) {
    const key = `${allowed ? "allowed" : "refused"} ${host}:${port}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [
    "",
    ...[...counts].map(([key, count]) =>
      `network: ${key}${count > 1 ? ` (${count} connections)` : ""}${
        key.startsWith("refused") ? " (not in network.allow; ask the user to allow it)" : ""
      }`
    ),
  ];
}

function endLine(end: RunEnd): string {
  switch (end.kind) {
    case "exit":
      return `exit code ${end.code}`;
    case "timeout":
      return `timed out after ${end.timeoutMs / 1000} s; the command and all its processes ` +
        "were killed";
    case "aborted":
      return "interrupted by the user; the command and all its processes were killed";
    default: {
      const never: never = end;
      return never;
    }
  }
}

function endSummary(end: RunEnd): string {
  switch (end.kind) {
    case "exit":
      return `exit ${end.code}`;
    case "timeout":
      return "timed out";
    case "aborted":
      return "interrupted";
    default: {
      const never: never = end;
      return never;
    }
  }
}

function commandEnd(end: RunEnd): CommandEnd {
  switch (end.kind) {
    case "exit":
      return end;
    case "timeout":
      return { kind: "timeout", seconds: end.timeoutMs / 1000 };
    case "aborted":
      return { kind: "interrupted" };
    default: {
      const never: never = end;
      return never;
    }
  }
}

function describeTool(
  { mode, gitControl, workspace, hosts }: Pick<
    CommandRunner,
    "mode" | "gitControl" | "workspace" | "hosts"
  >,
): string {
  const common = "Run a shell command with `bash -c` in the workspace (the current directory). " +
    "stdout and stderr are combined; only the last " +
    `${MAX_LINES} lines / ${MAX_BYTES / 1024} KB are returned, with a note when output was cut ` +
    "(redirect long output to a file and read it with read_file). The last line reports the " +
    `exit code. Default timeout ${DEFAULT_TIMEOUT_SECONDS} s, at most ${MAX_TIMEOUT_SECONDS} s; ` +
    "on timeout every process of the command is killed. stdin is empty: do not run " +
    "interactive programs.";
  switch (mode) {
    case "bwrap": {
      const writable = workspace === "ro"
        ? "the workspace is read-only (commands cannot change it), "
        : "only the workspace is writable, ";
      const network = hosts === undefined || hosts.length === 0
        ? "there is no network"
        : `HTTP and HTTPS reach only ${hosts.join(", ")} through the proxy in HTTP_PROXY and ` +
          "HTTPS_PROXY (any other host is refused)";
      return `${common} Sandbox: ${writable}/tmp is private and empty, ` +
        `${network} and no Unix socket (socketpair works), HOME is /tmp, and ` +
        "background processes end with the command." +
        (workspace === "rw" && gitControl === "protected" ? GIT_NOTE : "");
    }
    case "unsandboxed":
      return `${common} The command runs without a sandbox; stay inside the workspace.`;
    case "unavailable":
      return `${common} Currently disabled: bubblewrap is missing, so every call is refused.`;
    default: {
      const never: never = mode;
      return never;
    }
  }
}
