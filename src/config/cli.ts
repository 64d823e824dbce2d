/**
 * Command-line flags.
 *
 * @module
 */
import { parseArgs } from "@std/cli/parse-args";
import type { BudgetLimits } from "../core/mod.ts";
import { isPositiveNumber } from "./spending_config.ts";

/** How `-p` reports: the answer as text, one JSON object, or JSON lines as things happen. */
export type OutputFormat = "text" | "json" | "stream-json";

const OUTPUT_FORMATS: readonly OutputFormat[] = ["text", "json", "stream-json"];

/** Parsed command-line options. */
export interface CliOptions {
  help: boolean;
  version: boolean;
  print?: string;
  continue: boolean;
  resume?: string;
  /** `--fork ID[:ENTRY]`: a new session holding session ID's conversation (up to ENTRY). */
  fork?: string;
  /** `-r` without an id: list the sessions to choose from. */
  chooseSession: boolean;
  /** `--sessions`: list recent sessions and exit. */
  sessions: boolean;
  maxSteps: number;
  unsandboxedBash: boolean;
  /**
   * `--allow-git-writes` (or its old name `--allow-git-hooks`): the tools may write every git
   * directory of the workspace and create repositories (see the README's permission model).
   */
  allowGitWrites: boolean;
  /** `--show-reasoning`: keep a reasoning model's thinking on screen in full. */
  showReasoning: boolean;
  provider?: string;
  /** `--output-format`: how `-p` reports (text unless given). */
  outputFormat: OutputFormat;
  /** `--max-tokens`, `--max-cost`: the session's budget, in place of provider.json's. */
  budget: BudgetLimits;
  /** `--model NAME`: the provider file's profile to start on. */
  model?: string;
  /** `--dir PATH` / `-C PATH`: the project directory (project mode), as typed. */
  dir?: string;
  /** `--add-dir PATH`, repeatable: further roots with the same confinement, as typed. */
  addDirs: string[];
  /** `--scope`: print the effective authority of this run and exit. */
  scope: boolean;
  /** `--plan`: start in plan mode (with `-c`/`-r` too; without it they restore the session's). */
  plan: boolean;
  /** `--undo`: take back the last task of the latest session and exit. */
  undo: boolean;
  /** `--force` (with `--undo`): overwrite files changed since the task ended. */
  force: boolean;
  /** {@linkcode LAYOUT_FLAG} came first: the checkout's own task or binary started this run. */
  layout: boolean;
  /** `--approval auto|edits|ask`: when tool calls ask first (default auto). */
  approval?: "auto" | "edits" | "ask";
  /** `--allow-domain HOST`, repeatable: hosts commands may reach for this run. */
  allowDomains: string[];
  /** `-i FILE` / `--image FILE`, repeatable, with `-p`: images sent with the task. */
  images: string[];
  /** `export --bundle FILE`: write a session as a replayable bundle to FILE and exit. */
  bundle?: string;
  /** `replay FILE`: run a bundle's tool calls again in a scratch copy and exit. */
  replay?: string;
}

const APPROVALS = ["auto", "edits", "ask"] as const;

/**
 * The first argument of the checkout's `start` task and compiled binary (baked into both in
 * deno.json): the only way to the workspace layout. Accepted first only; the installed
 * command never passes it and refuses it.
 */
export const LAYOUT_FLAG = "--workspace-layout";

/** Model calls per task when --max-steps is not given. */
export const DEFAULT_MAX_STEPS = 100;

/** The `-h` text. */
export const USAGE = `powercode: a coding agent for your terminal, confined to its workspace

  powercode            the REPL (-c: continue the latest, -r [ID]: resume one)
  powercode -p "task"  one task, the answer on stdout (--output-format json)
  -i FILE              with -p: send the image FILE with the task (repeatable)
  -C, --dir PATH       work on PATH (default: here); --add-dir PATH: one more
  --provider FILE      the provider file; --model NAME: start on that profile
  --plan               plan mode: only PLAN.md may change, commands read-only
  --approval MODE      auto, edits (commands ask) or ask (writes, commands ask)
  --allow-domain HOST  commands may reach HOST through the proxy (repeatable)
  --max-steps N        model calls per task (default 100)
  --max-tokens N, --max-cost USD   stop before the session would spend more
  --sessions           recent sessions; --fork ID[:ENTRY]: a new one from one
  --undo [--force]     take back the last task of the latest session
  export --bundle FILE the latest session (-r ID: that one) as a replayable file
  replay FILE          run a bundle's tool calls again offline (1: it differs)
  --scope              print what this run may read, write and run
  --show-reasoning     keep a reasoning model's thinking on screen in full
  --allow-git-writes   let the tools write .git (hooks run at your next git)
  --unsandboxed-bash   run commands without bubblewrap (warns once)
  -h, --help / -V, --version

Piped stdin: one task per line; with -p, the piped text is the task's context.
At the prompt, / lists the commands. More: README.md and docs/ of the checkout.`;

/**
 * Parses argv.
 * Contract: throws a TypeError with a one-line message on unknown or bad flags.
 */
export function parseCli(args: string[]): CliOptions {
  const layout = args[0] === LAYOUT_FLAG;
  const rest = layout ? args.slice(1) : args;
  // `deno task start -- -p "task"` passes the `--` on; it must not turn the flags into text.
  const { flags, command } = subcommand(rest[0] === "--" ? rest.slice(1) : rest);
  const parsed = parseArgs(flags, {
    string: [
      "print",
      "resume",
      "fork",
      "max-steps",
      "provider",
      "model",
      "output-format",
      "max-tokens",
      "max-cost",
      "dir",
      "add-dir",
      "approval",
      "allow-domain",
      "image",
    ],
    collect: ["add-dir", "allow-domain", "image"],
    boolean: [
      "help",
      "version",
      "continue",
      "unsandboxed-bash",
      "sessions",
      "allow-git-writes",
      "show-reasoning",
      "scope",
      "plan",
      "undo",
      "force",
    ],
    alias: {
      p: "print",
      r: "resume",
      c: "continue",
      h: "help",
      V: "version",
      C: "dir",
      i: "image",
      "allow-git-writes": "allow-git-hooks",
    },
    unknown: (arg) => {
      if (arg === "") {
        throw new TypeError(
          'Invalid -p: the task is empty; give its text, e.g. -p "list the files"',
        );
      }
      throw new TypeError(`Unknown argument "${arg}": run powercode -h for the options`);
    },
  });
  const maxSteps = parsed["max-steps"] === undefined
    ? DEFAULT_MAX_STEPS
    : Number(parsed["max-steps"]);
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new TypeError(
      `Invalid --max-steps "${parsed["max-steps"]}": expected a positive integer`,
    );
  }
  if (parsed.print !== undefined && parsed.print.trim() === "") {
    throw new TypeError('Invalid -p: the task is empty; give its text, e.g. -p "list the files"');
  }
  const chooseSession = parsed.resume !== undefined && parsed.resume.trim() === "";
  if (parsed.model !== undefined && parsed.model.trim() === "") {
    throw new TypeError("Invalid --model: the profile name is empty; give one, e.g. --model big");
  }
  if (parsed.continue && parsed.resume !== undefined) {
    throw new TypeError("Cannot use --continue and --resume together: choose one");
  }
  if (parsed.fork !== undefined && (parsed.continue || parsed.resume !== undefined)) {
    throw new TypeError("Cannot use --fork with --continue or --resume: choose one");
  }
  if (parsed.fork !== undefined && !/^[A-Za-z0-9_-]+(:\d+)?$/.test(parsed.fork.trim())) {
    throw new TypeError(
      `Invalid --fork "${parsed.fork}": expected a session id, e.g. --fork 2026 or --fork 2026:14`,
    );
  }
  const addDirs = parsed["add-dir"];
  for (const [flag, value] of [["--dir", parsed.dir], ...addDirs.map((d) => ["--add-dir", d])]) {
    if (value?.trim() === "") {
      throw new TypeError(`Invalid ${flag}: the path is empty; give a directory`);
    }
  }
  const approval = APPROVALS.find((mode) => mode === parsed.approval);
  if (parsed.approval !== undefined && approval === undefined) {
    throw new TypeError(
      `Invalid --approval "${parsed.approval}": expected ${APPROVALS.join(", ")}`,
    );
  }
  const images = parsed.image;
  if (images.length > 0 && parsed.print === undefined) {
    throw new TypeError('Invalid -i: images go with -p "task"; at the prompt, type @shot.png');
  }
  if (images.some((path) => path.trim() === "")) {
    throw new TypeError("Invalid -i: the path is empty; give an image file");
  }
  if (parsed.force && !parsed.undo) {
    throw new TypeError("Invalid --force: it goes with --undo (at the prompt: /undo --force)");
  }
  return {
    outputFormat: readOutputFormat(parsed["output-format"], parsed.print !== undefined),
    budget: readBudgetFlags(parsed["max-tokens"], parsed["max-cost"]),
    help: parsed.help,
    version: parsed.version,
    continue: parsed.continue,
    chooseSession,
    sessions: parsed.sessions,
    maxSteps,
    unsandboxedBash: parsed["unsandboxed-bash"],
    allowGitWrites: parsed["allow-git-writes"],
    showReasoning: parsed["show-reasoning"],
    plan: parsed.plan,
    undo: parsed.undo,
    force: parsed.force,
    ...(parsed.print !== undefined ? { print: parsed.print } : {}),
    ...(parsed.resume !== undefined && !chooseSession ? { resume: parsed.resume.trim() } : {}),
    ...(parsed.fork !== undefined ? { fork: parsed.fork.trim() } : {}),
    ...(parsed.provider !== undefined ? { provider: parsed.provider } : {}),
    ...(parsed.model !== undefined ? { model: parsed.model.trim() } : {}),
    ...(parsed.dir !== undefined ? { dir: parsed.dir } : {}),
    ...(approval !== undefined ? { approval } : {}),
    addDirs,
    allowDomains: parsed["allow-domain"],
    images,
    scope: parsed.scope,
    layout,
    ...command,
  };
}

/** The flags after `export --bundle FILE` or `replay FILE` is taken out, and what it asks. */
function subcommand(
  args: readonly string[],
): { flags: string[]; command: Pick<CliOptions, "bundle" | "replay"> } {
  const [first, ...flags] = args;
  if (first === "replay") {
    const file = flags.shift();
    if (file === undefined || file === "" || file.startsWith("-")) {
      throw new TypeError("Invalid replay: name the bundle, e.g. powercode replay session.bundle");
    }
    return { flags, command: { replay: file } };
  }
  if (first !== "export") return { flags: [...args], command: {} };
  const at = flags.indexOf("--bundle");
  const file = at === -1 ? undefined : flags[at + 1];
  if (file === undefined || file === "" || file.startsWith("-")) {
    throw new TypeError("Invalid export: name the bundle, e.g. powercode export --bundle s.bundle");
  }
  flags.splice(at, 2);
  return { flags, command: { bundle: file } };
}

function readOutputFormat(value: string | undefined, print: boolean): OutputFormat {
  if (value === undefined) return "text";
  const format = OUTPUT_FORMATS.find((name) => name === value);
  if (format === undefined) {
    throw new TypeError(
      `Invalid --output-format "${value}": expected ${OUTPUT_FORMATS.join(", ")}`,
    );
  }
  if (format !== "text" && !print) {
    throw new TypeError(`Invalid --output-format "${value}": it applies to -p "task" only`);
  }
  return format;
}

function readBudgetFlags(tokens: string | undefined, cost: string | undefined): BudgetLimits {
  const limits: BudgetLimits = {};
  if (tokens !== undefined) {
    const value = Number(tokens);
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new TypeError(`Invalid --max-tokens "${tokens}": expected a positive integer`);
    }
    limits.tokens = value;
  }
  if (cost !== undefined) {
    const value = Number(cost.replace(/^\$/, ""));
    if (!isPositiveNumber(value)) {
      throw new TypeError(`Invalid --max-cost "${cost}": expected a positive number of dollars`);
    }
    limits.cost = value;
  }
  return limits;
}
