/**
 * powercode's entry point and composition root: parses flags, loads the provider
 * config, assembles the agent, builds the front end on it and runs one mode: the REPL,
 * one task (-p) or the sessions list.
 *
 * @module
 */
import denoConfig from "./deno.json" with { type: "json" };
import {
  answerReport,
  approveOnTerminal,
  assemble,
  type Assembly,
  type PrintReport,
  runPrint,
  runRepl,
  withPipedInput,
} from "./src/app/mod.ts";
import {
  type CliOptions,
  ConfigError,
  loadProviderProfiles,
  parseCli,
  Redactor,
  refuseInsideWorkspace,
  USAGE,
} from "./src/config/mod.ts";
import type { DirEntry } from "./src/editor/mod.ts";
import { type SessionChoice, SessionError, SessionStore } from "./src/session/mod.ts";
import { sanitize, terminalColumns, writeTo } from "./src/terminal/mod.ts";
import {
  createFrontEnd,
  formatSessionsTable,
  ScriptOutput,
  type ScriptWatched,
} from "./src/ui/mod.ts";

const WORKSPACE_DIR = "workspace";
const POWERCODE_DIR = ".powercode";
const SESSIONS_DIR = `${POWERCODE_DIR}/sessions`;
const HISTORY_FILE = `${POWERCODE_DIR}/history`;

async function main(args: string[]): Promise<number> {
  let cli: CliOptions;
  try {
    cli = parseCli(args);
  } catch (error) {
    return fail(error, 2);
  }
  if (cli.help) return print(`${USAGE}\n`);
  if (cli.version) return print(`powercode ${denoConfig.version}\n`);
  try {
    if (cli.sessions || cli.chooseSession) return await listSessions(cli.chooseSession);
    return await start(cli);
  } catch (error) {
    return fail(error, error instanceof ConfigError || error instanceof SessionError ? 2 : 1);
  }
}

async function start(cli: CliOptions): Promise<number> {
  await requireWorkspace();
  const providerPath = cli.provider ?? readEnv("POWERCODE_PROVIDER") ?? "provider.json";
  const providers = await loadProviderProfiles(providerPath, readEnv, {
    workspaceDir: WORKSPACE_DIR,
  });
  const configs = [...providers.profiles.values()];
  const piped = cli.print === undefined || Deno.stdin.isTerminal() ? "" : await readStdin();
  const interactive = cli.print === undefined;
  const terminal = Deno.stdin.isTerminal() && interactive;
  const color = Deno.stdout.isTerminal() && !readEnv("NO_COLOR");
  // The key and URL credentials never reach the terminal or a session file.
  const redactor = Redactor.forConfigs(configs);
  // Lines before the front end exists go where its lines go; no live row is shown yet.
  const notice = redactor.wrap(writeTo(interactive ? Deno.stdout : Deno.stderr));
  const store = await openStore(redactor);
  if (configs.some((config) => config.literalKey) && isTopLevelProviderFile(providerPath)) {
    notice(
      `⚠ ${providerPath} holds a literal API key and is tracked by git: use "env:NAME", or a ` +
        "personal copy in .powercode/ (--provider .powercode/provider.json)\n",
    );
  }
  // The banner names the profile the session resumes on, so the assembly's first notices wait
  // for it; later ones (a new session's) are printed as they come.
  let early: string[] | undefined = [];
  const report = (line: string) => early ? early.push(line) : notice(`${sanitize(line)}\n`);
  let assembly: Assembly | undefined;
  try {
    assembly = await assemble({
      providers,
      ...(cli.model !== undefined ? { profile: cli.model } : {}),
      configFile: providerPath,
      workspaceDir: WORKSPACE_DIR,
      maxSteps: cli.maxSteps,
      budget: cli.budget,
      store,
      session: sessionChoice(cli),
      ...(cli.plan ? { planMode: true } : {}),
      report,
      bash: {
        unsandboxedBash: cli.unsandboxedBash,
        hide: [providerPath, POWERCODE_DIR],
        allowGitHooks: cli.allowGitHooks,
      },
      mcp: {
        configDir: POWERCODE_DIR,
        stateDir: POWERCODE_DIR,
        env: readEnv,
        version: denoConfig.version,
        ...(terminal ? { approve: (review) => approveOnTerminal(review, notice) } : {}),
      },
    });
  } finally {
    if (terminal && assembly) {
      const label = assembly.profiles.label(assembly.agent.slot.name);
      notice(`powercode ${denoConfig.version} · ${label} · /help for commands\n`);
    }
    for (const line of early) notice(`${sanitize(line)}\n`);
    early = undefined;
  }
  const { agent, instructions, profiles, mcp, workspace } = assembly;
  await using _servers = mcp;
  const task = cli.print === undefined
    ? undefined
    : withPipedInput(cli.print, piped, agent.slot.compactor.settings);
  const renderer = await createFrontEnd(agent, {
    screen: Deno.stdout.isTerminal() && interactive,
    color,
    interactive,
    redactor,
    fullReasoning: cli.showReasoning,
    model: () => profiles.label(agent.slot.name),
  });
  const { unfinishedTodo } = assembly;
  if (task !== undefined) {
    if (unfinishedTodo.length > 0) renderer.unfinishedTodo(unfinishedTodo);
    const report = printReport(cli, agent, {
      redactor,
      model: profiles.config(agent.slot.name).model,
      roots: [workspace.root],
    });
    return await runPrint(agent, task, { renderer, report });
  }
  if (terminal && instructions) {
    const cut = instructions.truncated ? ", cut to 32 KB" : "";
    renderer.line(renderer.dim(`Loaded AGENTS.md (${instructions.bytes} bytes${cut})`));
  }
  if (unfinishedTodo.length > 0) renderer.unfinishedTodo(unfinishedTodo);
  if (agent.planMode) renderer.line(renderer.dim("Plan mode is on: /plan off leaves it"));
  return await runRepl({
    agent,
    ...(mcp ? { mcp } : {}),
    listSessions: (limit) => store.list(limit),
    profiles,
    renderer,
    terminal,
    editor: {
      color,
      historyFile: HISTORY_FILE,
      listDir: listWorkspace,
      redact: (text) => redactor.redact(text),
    },
  });
}

/**
 * How -p reports on stdout: the final answer as text, or JSON (`--output-format`), which then
 * is all that stdout gets.
 */
function printReport(
  cli: CliOptions,
  agent: ScriptWatched,
  run: { redactor: Redactor; model: string; roots: string[] },
): PrintReport {
  const stdout = writeTo(Deno.stdout);
  if (cli.outputFormat === "text") {
    return answerReport((answer) => run.redactor.wrap(stdout)(`${answer}\n`));
  }
  return new ScriptOutput(agent, { ...run, format: cli.outputFormat, write: stdout });
}

/** The session store, its directory created now so that the sandbox hides it from the first task on. */
async function openStore(redactor: Redactor): Promise<SessionStore> {
  await Deno.mkdir(SESSIONS_DIR, { recursive: true });
  await refuseInsideWorkspace(POWERCODE_DIR, WORKSPACE_DIR, {
    what: `the sessions directory "${POWERCODE_DIR}"`,
    fix: "point workspace/ at a directory that does not hold powercode's own files",
  });
  return new SessionStore(SESSIONS_DIR, { redact: (text) => redactor.redact(text) });
}

/** A workspace directory's entries, for Tab completion. */
async function listWorkspace(dir: string): Promise<DirEntry[]> {
  const entries: DirEntry[] = [];
  for await (const entry of Deno.readDir(`${WORKSPACE_DIR}/${dir}`)) {
    entries.push({ name: entry.name, isDirectory: entry.isDirectory });
  }
  return entries;
}

/** `--sessions` and `-r` without an id: the table of recent sessions. */
async function listSessions(choose: boolean): Promise<number> {
  const table = formatSessionsTable(await new SessionStore(SESSIONS_DIR).list(20), {
    width: Deno.stdout.isTerminal() ? terminalColumns() : 80,
  });
  const hint = choose ? "\nResume one with: powercode -r ID (any unique start of the id)" : "";
  return print(`${table}${hint}\n`);
}

/** All of stdin as text (read directly: web streams cost a start-up's worth of time). */
async function readStdin(): Promise<string> {
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(64 * 1024);
  for (
    let read = await Deno.stdin.read(buffer);
    read !== null;
    read = await Deno.stdin.read(buffer)
  ) {
    chunks.push(buffer.slice(0, read));
  }
  const decoder = new TextDecoder();
  return chunks.map((chunk, index) => decoder.decode(chunk, { stream: index < chunks.length - 1 }))
    .join("");
}

function isTopLevelProviderFile(path: string): boolean {
  return path.replace(/^\.\//, "") === "provider.json";
}

function sessionChoice(cli: CliOptions): SessionChoice {
  if (cli.continue) return { kind: "latest" };
  if (cli.resume !== undefined) return { kind: "id", id: cli.resume };
  return { kind: "new" };
}

async function requireWorkspace(): Promise<void> {
  try {
    if ((await Deno.stat(WORKSPACE_DIR)).isDirectory) return;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  throw new ConfigError(
    `No "${WORKSPACE_DIR}/" directory here: create it (mkdir ${WORKSPACE_DIR}) or start powercode in the directory that holds it`,
  );
}

function readEnv(name: string): string | undefined {
  return Deno.env.get(name);
}

function print(text: string): number {
  writeTo(Deno.stdout)(text);
  return 0;
}

function fail(error: unknown, code: number): number {
  const message = error instanceof Error ? error.message : String(error);
  writeTo(Deno.stderr)(`powercode: ${sanitize(message)}\n`);
  return code;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
