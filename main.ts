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
import { ConfigError, loadProviderConfig, refuseInsideWorkspace } from "./src/config.ts";
import { Redactor } from "./src/redact.ts";
import { Renderer } from "./src/render.ts";
import { runPrint, runRepl } from "./src/repl.ts";
import { type SessionChoice, SessionError, SessionStore } from "./src/session/mod.ts";

const WORKSPACE_DIR = "workspace";
const POWERCODE_DIR = ".powercode";
const SESSIONS_DIR = `${POWERCODE_DIR}/sessions`;
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
    return fail(error, error instanceof ConfigError || error instanceof SessionError ? 2 : 1);
  }
}

async function start(cli: CliOptions): Promise<number> {
  await requireWorkspace();
  const providerPath = cli.provider ?? readEnv("POWERCODE_PROVIDER") ?? "provider.json";
  const config = await loadProviderConfig(providerPath, readEnv, { workspaceDir: WORKSPACE_DIR });
  const terminal = Deno.stdin.isTerminal() && cli.print === undefined;
  const color = Deno.stdout.isTerminal() && !readEnv("NO_COLOR");
  // The key and URL credentials never reach the terminal or a session file.
  const redactor = Redactor.forConfig(config);
  const renderer = new Renderer({
    answer: redactor.streaming(writeTo(Deno.stdout)),
    status: redactor.wrap(writeTo(cli.print === undefined ? Deno.stdout : Deno.stderr)),
    color,
    spinner: terminal && Deno.stdout.isTerminal(),
    streamAnswer: cli.print === undefined,
  });
  // Created now so that the sandbox can hide it from commands from the first task on.
  await Deno.mkdir(SESSIONS_DIR, { recursive: true });
  await refuseInsideWorkspace(POWERCODE_DIR, WORKSPACE_DIR, {
    what: `the sessions directory "${POWERCODE_DIR}"`,
    fix: "point workspace/ at a directory that does not hold powercode's own files",
  });
  const store = new SessionStore(SESSIONS_DIR, { redact: (text) => redactor.redact(text) });
  const { agent } = await assemble({
    config,
    configFile: providerPath,
    workspaceDir: WORKSPACE_DIR,
    maxSteps: cli.maxSteps,
    onEvent: (event) => renderer.render(event),
    store,
    session: sessionChoice(cli),
    report: (line) => renderer.line(line),
    bash: { unsandboxedBash: cli.unsandboxedBash, hide: [providerPath, POWERCODE_DIR] },
  });
  if (cli.print !== undefined) {
    return await runPrint(agent, cli.print, {
      renderer,
      printAnswer: (answer) => redactor.wrap(writeTo(Deno.stdout))(`${answer}\n`),
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
  });
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
  writeTo(Deno.stderr)(`powercode: ${message}\n`);
  return code;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
