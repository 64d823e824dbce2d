/**
 * powercode's entry point and composition root: parses flags, loads the
 * provider config, wires the agent and starts the REPL or runs one task.
 *
 * @module
 */
import denoConfig from "./deno.json" with { type: "json" };
import { assemble } from "./src/assemble.ts";
import { parseCli, USAGE } from "./src/cli.ts";
import type { CliOptions } from "./src/cli.ts";
import { ConfigError, loadProviderConfig } from "./src/config.ts";
import { Renderer } from "./src/render.ts";
import { runPrint, runRepl } from "./src/repl.ts";
import { type SessionChoice, SessionStore } from "./src/session/mod.ts";
import type { DirEntry } from "./src/ui/completion.ts";
import { PlainOutput } from "./src/ui/plain_output.ts";
import { sanitize } from "./src/ui/sanitize.ts";
import { TaskView } from "./src/ui/task_view.ts";
import { terminalColumns, terminalRows } from "./src/ui/terminal.ts";

const WORKSPACE_DIR = "workspace";
const POWERCODE_DIR = ".powercode";
const SESSIONS_DIR = `${POWERCODE_DIR}/sessions`;
const HISTORY_FILE = `${POWERCODE_DIR}/history`;
const encoder = new TextEncoder();

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
    return await start(cli);
  } catch (error) {
    return fail(error, error instanceof ConfigError ? 2 : 1);
  }
}

async function start(cli: CliOptions): Promise<number> {
  await requireWorkspace();
  const providerPath = cli.provider ?? readEnv("POWERCODE_PROVIDER") ?? "provider.json";
  const config = await loadProviderConfig(providerPath, readEnv);
  const interactive = cli.print === undefined;
  const terminal = Deno.stdin.isTerminal() && interactive;
  const screen = Deno.stdout.isTerminal() && interactive;
  const color = Deno.stdout.isTerminal() && !readEnv("NO_COLOR");
  const output = screen
    ? new TaskView({
      io: { write: writeTo(Deno.stdout), columns: terminalColumns, rows: terminalRows },
      color,
      markdown: color,
    })
    : new PlainOutput({
      answer: writeTo(Deno.stdout),
      status: writeTo(interactive ? Deno.stdout : Deno.stderr),
    });
  if (output instanceof TaskView) Deno.addSignalListener("SIGWINCH", () => output.resize());
  const renderer = new Renderer({
    output,
    color,
    streamAnswer: interactive,
    model: config.model,
    screen,
  });
  // Created now so that the sandbox can hide it from commands from the first task on.
  await Deno.mkdir(SESSIONS_DIR, { recursive: true });
  const store = new SessionStore(SESSIONS_DIR);
  const { agent } = await assemble({
    config,
    workspaceDir: WORKSPACE_DIR,
    maxSteps: cli.maxSteps,
    onEvent: (event) => renderer.render(event),
    store,
    session: sessionChoice(cli),
    report: (line) => renderer.line(sanitize(line)),
    bash: { unsandboxedBash: cli.unsandboxedBash, hide: [providerPath, POWERCODE_DIR] },
  });
  renderer.watchContext(() => agent.context());
  if (cli.print !== undefined) {
    return await runPrint(agent, cli.print, {
      renderer,
      printAnswer: (answer) => writeTo(Deno.stdout)(`${answer}\n`),
    });
  }
  if (terminal) {
    renderer.line(`powercode ${denoConfig.version} · ${config.model} · /help for commands`);
  }
  return await runRepl({
    agent,
    listSessions: (limit) => store.list(limit),
    renderer,
    terminal,
    editor: { color, historyFile: HISTORY_FILE, listDir: listWorkspace },
  });
}

/** A workspace directory's entries, for Tab completion. */
async function listWorkspace(dir: string): Promise<DirEntry[]> {
  const entries: DirEntry[] = [];
  for await (const entry of Deno.readDir(`${WORKSPACE_DIR}/${dir}`)) {
    entries.push({ name: entry.name, isDirectory: entry.isDirectory });
  }
  return entries;
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

function writeTo(file: { writeSync(data: Uint8Array): number }): (text: string) => void {
  return (text) => {
    let bytes = encoder.encode(text);
    while (bytes.length > 0) bytes = bytes.subarray(file.writeSync(bytes));
  };
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
