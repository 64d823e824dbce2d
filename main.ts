/**
 * powercode's entry point and composition root: parses flags, finds where it works (the
 * workspace layout, or the project the launcher resolved), loads the provider config,
 * assembles the agent, builds the front end on it and runs one mode: the REPL, one task
 * (-p), the sessions list or the scope report.
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
  scopeReport,
  undoFromShell,
  withPipedInput,
} from "./src/app/mod.ts";
import {
  type CliOptions,
  ConfigError,
  knownProviderFiles,
  LAYOUT_WORKSPACE,
  loadProviderProfiles,
  locate,
  type Locations,
  ownFiles,
  parseCli,
  PROJECT_MODE_HINT,
  type ProviderProfiles,
  readProviderSecrets,
  Redactor,
  refuseInsideWorkspace,
  USAGE,
} from "./src/config/mod.ts";
import { loadedLine } from "./src/agent/mod.ts";
import type { DirEntry } from "./src/editor/mod.ts";
import { type SessionChoice, SessionError, SessionStore } from "./src/session/mod.ts";
import { sanitize, terminalColumns, wrapHanging, writeTo } from "./src/terminal/mod.ts";
import { createTools, type CreateToolsOptions, stopProcessGroup } from "./src/tools/mod.ts";
import {
  createFrontEnd,
  formatSessionsTable,
  ScriptOutput,
  type ScriptWatched,
} from "./src/ui/mod.ts";

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
    const locations = locate(cli, readEnv);
    if (cli.scope) return await printScope(cli, locations);
    if (cli.sessions || cli.chooseSession) return await listSessions(locations, cli.chooseSession);
    if (cli.undo) return await undoLastTask(cli, locations);
    return await start(cli, locations);
  } catch (error) {
    return fail(error, error instanceof ConfigError || error instanceof SessionError ? 2 : 1);
  }
}

async function start(cli: CliOptions, locations: Locations): Promise<number> {
  await requireWorkspace(locations);
  const setup = await prepare(cli, locations);
  const assembly = await assembleAnnounced(cli, locations, setup);
  await using _servers = assembly.mcp;
  return await runMode(cli, locations, setup, assembly);
}

/** What a run sets up before the assembly: the provider profiles, the redactor, the store. */
interface RunSetup {
  providers: ProviderProfiles;
  redactor: Redactor;
  store: SessionStore;
  /** Writes a line where the front end's lines will go (stdout, or stderr for -p). */
  notice: (text: string) => void;
  /** Piped stdin, for -p; empty otherwise. */
  piped: string;
  interactive: boolean;
  /** stdin is a terminal and the run is interactive. */
  terminal: boolean;
  color: boolean;
}

/** Loads the provider file, opens the session store and warns of a literal key. */
async function prepare(cli: CliOptions, locations: Locations): Promise<RunSetup> {
  const { providerFile: providerPath } = locations;
  const providers = await loadProviderProfiles(
    providerPath,
    readEnv,
    locations.mode === "layout" ? { workspaceDir: LAYOUT_WORKSPACE } : {},
  );
  if (locations.mode === "project") {
    await refuseInsideRoots(providerPath, locations, {
      what: `provider file "${providerPath}"`,
      fix: "keep it in ~/.config/powercode/ or name another with --provider",
    });
  }
  const configs = [...providers.profiles.values()];
  const piped = cli.print === undefined || Deno.stdin.isTerminal() ? "" : await readStdin();
  const interactive = cli.print === undefined;
  // The keys and URL credentials, also of the other provider files, never reach the terminal
  // or a session file; the sandbox masks every one of those files.
  const others = await readProviderSecrets(knownProviderFiles(locations));
  const redactor = Redactor.forConfigs([...configs, ...others]);
  // Lines before the front end exists go where its lines go; no live row is shown yet.
  const notice = redactor.wrap(writeTo(interactive ? Deno.stdout : Deno.stderr));
  const store = await openStore(locations, redactor);
  const literal = configs.some((config) => config.literalKey);
  if (literal && locations.mode === "layout" && isTopLevelProviderFile(providerPath)) {
    notice(
      `⚠ ${providerPath} holds a literal API key, which a commit or a copy of this directory ` +
        'shares: use "env:NAME", or a personal copy in .powercode/ ' +
        "(--provider .powercode/provider.json)\n",
    );
  }
  return {
    providers,
    redactor,
    store,
    notice,
    piped,
    interactive,
    terminal: Deno.stdin.isTerminal() && interactive,
    color: Deno.stdout.isTerminal() && !readEnv("NO_COLOR"),
  };
}

/**
 * Assembles the agent, then prints the banner and the assembly's notices after it (the banner
 * names the profile the session resumes on); later notices print as they come.
 */
async function assembleAnnounced(
  cli: CliOptions,
  locations: Locations,
  setup: RunSetup,
): Promise<Assembly> {
  const { notice, terminal } = setup;
  let early: string[] | undefined = [];
  // On a terminal a notice wraps by word (the terminal would break words), under itself.
  const screen = Deno.stdout.isTerminal() && setup.interactive;
  const noticeLine = (line: string) =>
    notice(`${screen ? wrapNotice(sanitize(line), terminalColumns() - 1) : sanitize(line)}\n`);
  const report = (line: string) => early ? early.push(line) : noticeLine(line);
  let assembly: Assembly | undefined;
  try {
    assembly = await assemble({
      providers: setup.providers,
      ...(cli.model !== undefined ? { profile: cli.model } : {}),
      configFile: locations.providerFile,
      workspaceDir: locations.roots[0] ?? LAYOUT_WORKSPACE,
      maxSteps: cli.maxSteps,
      budget: cli.budget,
      store: setup.store,
      session: sessionChoice(cli),
      ...(cli.plan ? { planMode: true } : {}),
      report,
      bash: bashOptions(cli, locations),
      mcp: {
        configDir: locations.configDir,
        stateDir: locations.stateDir,
        env: readEnv,
        version: denoConfig.version,
        ...(terminal ? { approve: (review) => approveOnTerminal(review, notice) } : {}),
      },
      undo: { dir: snapshotsDir(locations) },
    });
  } finally {
    if (terminal && assembly) {
      const label = assembly.profiles.label(assembly.agent.slot.name);
      notice(`powercode ${denoConfig.version} · ${label} · /help for commands\n`);
    }
    for (const line of early) noticeLine(line);
    early = undefined;
  }
  return assembly;
}

/** Builds the front end on the agent and runs the mode: one task (-p) or the REPL. */
async function runMode(
  cli: CliOptions,
  locations: Locations,
  setup: RunSetup,
  assembly: Assembly,
): Promise<number> {
  const { agent, instructions, profiles, mcp, workspace, sandbox, undo, tools } = assembly;
  const { redactor, interactive, terminal, color } = setup;
  const task = cli.print === undefined
    ? undefined
    : withPipedInput(cli.print, setup.piped, agent.slot.compactor.settings);
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
      roots: [workspace.root, ...workspace.moreRoots],
    });
    return await runPrint(agent, task, { renderer, report, undo });
  }
  if (terminal && instructions) renderer.line(renderer.dim(loadedLine(instructions)));
  if (unfinishedTodo.length > 0) renderer.unfinishedTodo(unfinishedTodo);
  if (agent.planMode) renderer.line(renderer.dim("Plan mode is on: /plan off leaves it"));
  return await runRepl({
    agent,
    ...(mcp ? { mcp } : {}),
    ...(undo ? { undo } : {}),
    listSessions: (limit) => setup.store.list(limit),
    profiles,
    describeScope: () => scopeReport({ locations, workspace, sandbox }, terminalWidth()),
    continueCommand: continueCommand(),
    tools,
    workspace,
    renderer,
    terminal,
    editor: {
      color,
      historyFile: `${locations.stateDir}/history`,
      listDir: (dir) => listDir(`${workspace.path}/${dir}`),
      redact: (text) => redactor.redact(text),
      stopProgram: stopProcessGroup,
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

/** How bash is set up: powercode's own files (see `ownFiles`) hidden from commands. */
function bashOptions(cli: CliOptions, locations: Locations): CreateToolsOptions {
  const { stateDir } = locations;
  // bwrap reads the empty file's path itself, from its own working directory.
  const absoluteState = stateDir.startsWith("/") ? stateDir : `${Deno.cwd()}/${stateDir}`;
  return {
    unsandboxedBash: cli.unsandboxedBash,
    hide: ownFiles(locations),
    allowGitWrites: cli.allowGitWrites,
    moreDirs: locations.roots.slice(1),
    emptyFile: `${absoluteState}/empty`,
  };
}

/** `--scope`: the effective authority of this run, without loading the provider file. */
async function printScope(cli: CliOptions, locations: Locations): Promise<number> {
  await requireWorkspace(locations);
  const { workspace, sandbox } = await createTools(
    locations.roots[0] ?? LAYOUT_WORKSPACE,
    bashOptions(cli, locations),
  );
  return print(`${await scopeReport({ locations, workspace, sandbox }, terminalWidth())}\n`);
}

/** `--undo`: the last task of the latest session taken back, without a provider file. */
async function undoLastTask(cli: CliOptions, locations: Locations): Promise<number> {
  await requireWorkspace(locations);
  return await undoFromShell({
    store: new SessionStore(`${locations.stateDir}/sessions`),
    workspaceDir: locations.roots[0] ?? LAYOUT_WORKSPACE,
    setup: { dir: snapshotsDir(locations) },
    bash: bashOptions(cli, locations),
    force: cli.force,
    out: (line) => writeTo(Deno.stdout)(`${line}\n`),
    err: (line) => writeTo(Deno.stderr)(`${line}\n`),
  });
}

/** Where task snapshots go: content-addressed in the state directory (see src/undo/). */
function snapshotsDir(locations: Locations): string {
  return `${locations.stateDir}/snapshots`;
}

/** The session store, its directory created now so that the sandbox hides it from the first task on. */
async function openStore(locations: Locations, redactor: Redactor): Promise<SessionStore> {
  const { stateDir } = locations;
  await Deno.mkdir(`${stateDir}/sessions`, { recursive: true });
  await refuseInsideRoots(stateDir, locations, {
    what: `the sessions directory "${stateDir}"`,
    fix: locations.mode === "layout"
      ? "point workspace/ at a directory that does not hold powercode's own files"
      : "set XDG_STATE_HOME to a directory outside the project",
  });
  return new SessionStore(`${stateDir}/sessions`, { redact: (text) => redactor.redact(text) });
}

/** Refuses `path` when its real path lies inside one of the roots. */
async function refuseInsideRoots(
  path: string,
  locations: Locations,
  message: { what: string; fix: string },
): Promise<void> {
  for (const root of locations.roots) await refuseInsideWorkspace(path, root, message);
}

/** A directory's entries, for Tab completion. */
async function listDir(dir: string): Promise<DirEntry[]> {
  const entries: DirEntry[] = [];
  for await (const entry of Deno.readDir(dir)) {
    entries.push({ name: entry.name, isDirectory: entry.isDirectory });
  }
  return entries;
}

/** `--sessions` and `-r` without an id: the table of recent sessions. */
async function listSessions(locations: Locations, choose: boolean): Promise<number> {
  const store = new SessionStore(`${locations.stateDir}/sessions`);
  const table = formatSessionsTable(await store.list(20), {
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

/**
 * The command that resumes the latest session where the program was started: the compiled
 * binary by the name it has here, `deno task start -c` in the checkout (its main module sits
 * in the current directory), else the installed `powercode`.
 */
function continueCommand(): string {
  const cwd = Deno.cwd();
  if (Deno.build.standalone) {
    const path = Deno.execPath();
    const slash = path.lastIndexOf("/");
    const name = path.slice(slash + 1);
    return path.slice(0, slash) === cwd ? `./${name} -c` : `${name} -c`;
  }
  return new URL(".", Deno.mainModule).pathname === `${cwd}/`
    ? "deno task start -c"
    : "powercode -c";
}

/** Each line of `text` word-wrapped to `width` columns, its further rows indented. */
function wrapNotice(text: string, width: number): string {
  return text.split("\n").flatMap((line) => wrapHanging(line, width, "  ")).join("\n");
}

function isTopLevelProviderFile(path: string): boolean {
  return path.replace(/^\.\//, "") === "provider.json";
}

function sessionChoice(cli: CliOptions): SessionChoice {
  if (cli.continue) return { kind: "latest" };
  if (cli.resume !== undefined) return { kind: "id", id: cli.resume };
  return { kind: "new" };
}

/** In the workspace layout: throws unless `./workspace` is a directory. */
async function requireWorkspace(locations: Locations): Promise<void> {
  if (locations.mode === "project") return;
  try {
    if ((await Deno.stat(LAYOUT_WORKSPACE)).isDirectory) return;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  throw new ConfigError(
    `No "${LAYOUT_WORKSPACE}/" directory here: create it (mkdir ${LAYOUT_WORKSPACE}) or start ` +
      `powercode in the directory that holds it; ${PROJECT_MODE_HINT}`,
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

/** The terminal's width when stdout is one: lines laid out for it; pipes get whole lines. */
function terminalWidth(): number | undefined {
  return Deno.stdout.isTerminal() ? terminalColumns() : undefined;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
