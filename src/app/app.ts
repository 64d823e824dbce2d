/**
 * `App`: one record of the run's parts, opened once by every mode that talks to a model. A
 * part that is off in a run is a value that says so (undo off, no MCP server), and the
 * behaviour lives in the parts, not here.
 *
 * @module
 */
import type { ProjectReview } from "../mcp/mod.ts";
import type { SessionChoice } from "../session/mod.ts";
import { sanitize, terminalColumns, wrapHanging } from "../terminal/mod.ts";
import { assemble, type Assembly } from "./assemble.ts";
import { approvalSetup } from "./approval_setup.ts";
import { prepare, type Prepared } from "./prepare.ts";
import { bashOptions, requireWorkspace, type RunStart, snapshotsDir } from "./run_start.ts";
import type { Settings } from "../settings/mod.ts";
import { type NetConnection, refusalLine } from "../sandbox/mod.ts";
import { loadSettings, type SettingsReview } from "./settings_start.ts";

/** The run's parts: the agent and what it works with, and the facts of its front end. */
export interface App extends Assembly, Omit<Prepared, "providers" | "warnings"> {
  /** The command line, the locations and the terminal's facts. */
  start: RunStart;
  /** The user's and the approved project's settings, and `--allow-domain`. */
  settings: Settings;
  /** The text of `/scope`: what this run may read, write and run, asked at each call. */
  describeScope(): Promise<string>;
  /** Stops what the run started (MCP servers, background commands). */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Opens the run: loads the provider file and the session store, assembles the agent, then
 * prints the banner and the assembly's notices after it (the banner names the profile the
 * session resumes on); later notices print as they come.
 * Contract: throws `ConfigError` or `SessionError` for what the user must fix, before any
 * request is sent.
 */
export async function openApp(start: RunStart): Promise<App> {
  await requireWorkspace(start);
  const prepared = await prepare(start);
  const { cli, locations } = start;
  const { notice, terminal } = prepared;
  let early: string[] | undefined = [];
  // On a terminal a notice wraps by word (the terminal would break words), under itself.
  const screen = start.stdoutTerminal && prepared.interactive;
  const noticeLine = (line: string) =>
    notice(`${screen ? wrapNotice(sanitize(line), terminalColumns() - 1) : sanitize(line)}\n`);
  const report = (line: string) => early ? early.push(line) : noticeLine(line);
  let assembly: Assembly | undefined;
  let settings: Settings | undefined;
  try {
    for (const warning of prepared.warnings) report(warning);
    settings = await loadSettings({
      locations,
      allowDomains: cli.allowDomains,
      report,
      ...(terminal ? { approve: (review) => askSettingsOnTerminal(review, notice) } : {}),
    });
    // The rules of the loaded settings: the user's, and the project's once approved.
    const approval = {
      ...await approvalSetup(start, settings.permissions),
      domains: settings.network.allow,
    };
    // What a stdio server asked for; a command's connections go to its result.
    const connection = (c: NetConnection) =>
      c.allowed ? undefined : report(`⚠ MCP ${refusalLine(c)}`);
    assembly = await assemble({
      providers: prepared.providers,
      ...(cli.model !== undefined ? { profile: cli.model } : {}),
      configFile: locations.providerFile,
      workspaceDir: start.workspaceDir,
      maxSteps: cli.maxSteps,
      budget: cli.budget,
      store: prepared.sessions,
      session: sessionChoice(start),
      ...(start.cli.print !== undefined ? { origin: "print" as const } : {}),
      ...(cli.plan ? { planMode: true } : {}),
      report,
      bash: bashOptions(start, settings, connection),
      // The REPL shows bash's state with the start's notices; `-p` probes at its first command.
      probeAtStart: prepared.interactive,
      mcp: {
        configDir: locations.configDir,
        stateDir: locations.stateDir,
        env: start.env,
        version: start.version,
        // On a terminal the prompt comes at once; the first request waits for the servers.
        background: terminal,
        ...(terminal ? { approve: (review) => askServersOnTerminal(review, notice) } : {}),
      },
      undo: { dir: snapshotsDir(start) },
      approval,
      setup: { cwd: start.cwd, user: { path: locations.configDir, label: locations.configDir } },
      hooks: settings.hooks,
    });
  } finally {
    if (terminal && assembly) {
      const label = assembly.profiles.label(assembly.agent.slot.name);
      const banner = `powercode ${start.version} · ${label} · /help for commands`;
      notice(`${screen ? wrapNotice(banner, terminalColumns() - 1) : banner}\n`);
    }
    for (const line of early) noticeLine(line);
    early = undefined;
  }
  const parts = assembly;
  const loaded = settings;
  return {
    ...parts,
    ...prepared,
    start,
    settings: loaded,
    describeScope: async () =>
      (await import("./scope_report.ts")).scopeReport(
        {
          locations,
          settings: loaded,
          ...parts,
          ...(parts.agentScopes ? { agents: parts.agentScopes } : {}),
        },
        start.width(),
      ),
    [Symbol.asyncDispose]: async () => {
      await parts.jobs.close();
      await parts.mcp?.close();
    },
  };
}

/** The settings' approval prompt, loaded when a project's settings ask for one. */
async function askSettingsOnTerminal(
  review: SettingsReview,
  notice: (text: string) => void,
): Promise<boolean> {
  return await (await import("./settings_prompt.ts")).approveSettingsOnTerminal(review, notice);
}

/** The MCP servers' approval prompt, loaded when a project's servers ask for one. */
async function askServersOnTerminal(
  review: ProjectReview,
  notice: (text: string) => void,
): Promise<boolean> {
  return await (await import("./approval_prompt.ts")).approveOnTerminal(review, notice);
}

function sessionChoice({ cli }: RunStart): SessionChoice {
  if (cli.continue) return { kind: "latest" };
  if (cli.resume !== undefined) return { kind: "id", id: cli.resume };
  if (cli.fork !== undefined) {
    const [id = "", entry] = cli.fork.split(":");
    return { kind: "fork", id, ...(entry !== undefined ? { entry: Number(entry) } : {}) };
  }
  return { kind: "new" };
}

/** Each line of `text` word-wrapped to `width` columns, its further rows indented. */
function wrapNotice(text: string, width: number): string {
  return text.split("\n").flatMap((line) => wrapHanging(line, width, "  ")).join("\n");
}
