/**
 * powercode's entry point and composition root: parses flags, loads the
 * provider config, wires the agent and starts the REPL or runs one task.
 *
 * @module
 */
import denoConfig from "./deno.json" with { type: "json" };
import { Agent } from "./src/agent.ts";
import { createChatClient } from "./src/chat.ts";
import { parseCli, USAGE } from "./src/cli.ts";
import type { CliOptions } from "./src/cli.ts";
import { ConfigError, loadProviderConfig } from "./src/config.ts";
import type { ProviderConfig } from "./src/config.ts";
import { Compactor } from "./src/context/compactor.ts";
import { Session } from "./src/context/session.ts";
import type { SessionSink } from "./src/context/session.ts";
import { resolveCompactionSettings } from "./src/context/settings.ts";
import { SessionStore } from "./src/context/store.ts";
import type { SessionFile } from "./src/context/store.ts";
import { Renderer } from "./src/render.ts";
import { runPrint, runRepl } from "./src/repl.ts";
import { buildSystemPrompt } from "./src/system_prompt.ts";
import { createTools } from "./src/tools/mod.ts";
import { ToolRegistry } from "./src/tools/registry.ts";

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
    return fail(error, error instanceof ConfigError ? 2 : 1);
  }
}

async function start(cli: CliOptions): Promise<number> {
  await requireWorkspace();
  const providerPath = cli.provider ?? readEnv("POWERCODE_PROVIDER") ?? "provider.json";
  const config = await loadProviderConfig(providerPath, readEnv);
  const terminal = Deno.stdin.isTerminal() && cli.print === undefined;
  const color = Deno.stdout.isTerminal() && !readEnv("NO_COLOR");
  const renderer = new Renderer({
    answer: writeTo(Deno.stdout),
    status: writeTo(cli.print === undefined ? Deno.stdout : Deno.stderr),
    color,
    spinner: terminal && Deno.stdout.isTerminal(),
    streamAnswer: cli.print === undefined,
  });
  // Created now so that the sandbox can hide it from commands from the first task on.
  await Deno.mkdir(SESSIONS_DIR, { recursive: true });
  const { workspace, tools, warnings } = await createTools(WORKSPACE_DIR, {
    unsandboxedBash: cli.unsandboxedBash,
    hide: [providerPath, POWERCODE_DIR],
  });
  for (const warning of warnings) renderer.line(`⚠ ${warning}`);
  const store = new SessionStore(SESSIONS_DIR);
  const session = await openSession(store, cli, config, (line) => renderer.line(line));
  const model = createChatClient(config);
  const registry = new ToolRegistry(tools);
  const compactor = new Compactor({
    model,
    settings: resolveCompactionSettings(config),
    onEvent: (event) => renderer.render(event),
  });
  const systemPrompt = buildSystemPrompt(workspace.root);
  const agent = new Agent({
    model,
    tools: registry,
    session,
    compactor,
    systemPrompt,
    maxSteps: cli.maxSteps,
    ...(config.maxOutputTokens ? { maxOutputTokens: config.maxOutputTokens } : {}),
    onEvent: (event) => renderer.render(event),
  });
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
    compactor,
    overhead: { system: systemPrompt, tools: registry.definitions() },
    sessions: { create: () => new Session(lazySink(store, config)), list: (n) => store.list(n) },
    renderer,
    terminal,
  });
}

/** Opens the session named by --continue/--resume, or a new one whose file appears with its first record. */
async function openSession(
  store: SessionStore,
  cli: CliOptions,
  config: ProviderConfig,
  report: (line: string) => void,
): Promise<Session> {
  let id = cli.resume;
  if (cli.continue) {
    id = await store.latest();
    if (id === undefined) report("No earlier session to continue; starting a new one");
  }
  if (id === undefined) return new Session(lazySink(store, config));
  const loaded = await store.load(id).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${message}; run powercode without --continue/--resume for a new session`);
  });
  for (const warning of loaded.warnings) report(`⚠ ${warning}`);
  const session = Session.fromRecords(loaded.records, loaded.file);
  report(`Resumed session ${id} (${session.history.length} messages)`);
  return session;
}

function lazySink(store: SessionStore, config: ProviderConfig): SessionSink {
  let file: SessionFile | undefined;
  return {
    write(record) {
      file ??= store.create({ model: config.model });
      file.write(record);
    },
    close: () => file?.close(),
  };
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
