/**
 * Command-line flags.
 *
 * @module
 */
import { parseArgs } from "@std/cli/parse-args";

/** Parsed command-line options. */
export interface CliOptions {
  help: boolean;
  version: boolean;
  print?: string;
  continue: boolean;
  resume?: string;
  maxSteps: number;
  unsandboxedBash: boolean;
  provider?: string;
}

/** The `-h` text. */
export const USAGE = `powercode: a coding agent for your terminal, confined to ./workspace

Usage:
  powercode                      interactive REPL in ./workspace
  powercode -p "task"            one task, final answer on stdout, exit (0 ok, 1 failed)
  powercode -c | --continue      resume the most recent session
  powercode -r ID | --resume ID  resume a given session
  powercode --max-steps N        model calls per task (default 20)
  powercode --unsandboxed-bash   allow bash without bubblewrap (warns once)
  powercode --provider FILE      provider config (default ./provider.json, or $POWERCODE_PROVIDER)
  powercode -h | --help          this help
  powercode -V | --version       print the version

Piped stdin: each non-empty line is one task, run in order in one session; EOF ends.
Type /help at the prompt for commands.`;

/**
 * Parses argv.
 * Contract: throws a TypeError with a one-line message on unknown or bad flags.
 */
export function parseCli(args: string[]): CliOptions {
  const parsed = parseArgs(args, {
    string: ["print", "resume", "max-steps", "provider"],
    boolean: ["help", "version", "continue", "unsandboxed-bash"],
    alias: { p: "print", r: "resume", c: "continue", h: "help", V: "version" },
    unknown: (arg) => {
      throw new TypeError(`Unknown argument "${arg}": run powercode -h for the options`);
    },
  });
  const maxSteps = parsed["max-steps"] === undefined ? 20 : Number(parsed["max-steps"]);
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new TypeError(
      `Invalid --max-steps "${parsed["max-steps"]}": expected a positive integer`,
    );
  }
  if (parsed.print !== undefined && parsed.print.trim() === "") {
    throw new TypeError('Invalid -p "": give the task text, e.g. -p "list the files"');
  }
  if (parsed.resume !== undefined && parsed.resume.trim() === "") {
    throw new TypeError("Invalid --resume: give a session id (see /sessions)");
  }
  if (parsed.continue && parsed.resume !== undefined) {
    throw new TypeError("Cannot use --continue and --resume together: choose one");
  }
  return {
    help: parsed.help,
    version: parsed.version,
    continue: parsed.continue,
    maxSteps,
    unsandboxedBash: parsed["unsandboxed-bash"],
    ...(parsed.print !== undefined ? { print: parsed.print } : {}),
    ...(parsed.resume !== undefined ? { resume: parsed.resume } : {}),
    ...(parsed.provider !== undefined ? { provider: parsed.provider } : {}),
  };
}
