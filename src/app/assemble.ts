/**
 * The one wiring of powercode's parts: config → tools → tool set → chat client →
 * compaction settings → compactor → system prompt → session → Agent. main.ts, the demo,
 * the bench and the tests all build their agent here.
 *
 * @module
 */
import {
  Agent,
  buildSystemPrompt,
  loadProjectInstructions,
  type ProjectInstructions,
} from "../agent/mod.ts";
import { type ChatClientOptions, type ChatModel, createChatClient } from "../model/mod.ts";
import { ConfigError, type ProviderConfig } from "../config/mod.ts";
import {
  type CompactionSettings,
  Compactor,
  estimateRequestTokens,
  type RequestOverhead,
  resolveCompactionSettings,
} from "../context/mod.ts";
import { EventChannel, type EventSink, type ToolCall } from "../core/mod.ts";
import {
  newSession,
  openSession,
  Session,
  type SessionChoice,
  type SessionStore,
} from "../session/mod.ts";
import {
  createTools,
  type CreateToolsOptions,
  type Sandbox,
  type Tool,
  type ToolPolicy,
  ToolSet,
  Workspace,
} from "../tools/mod.ts";

/** Everything an agent is built from; only `config`, `workspaceDir`, `maxSteps` are required. */
export interface AssembleOptions {
  config: ProviderConfig;
  /** The file `config` came from, named in config errors (default "provider.json"). */
  configFile?: string;
  workspaceDir: string;
  /** Model calls allowed per task. */
  maxSteps: number;
  /** A first listener for agent and compaction events; more join through `agent.subscribe`. */
  onEvent?: EventSink;
  /** Where sessions live; without it sessions stay in memory. */
  store?: SessionStore;
  /** Which session to open from `store` (default: a new one). */
  session?: SessionChoice;
  /** One-line notices, in order: bash sandbox warnings, then session notices (resumed, load warnings). */
  report?: (line: string) => void;
  /** How bash is set up (sandbox probe, hidden paths, unsandboxed mode). */
  bash?: CreateToolsOptions;
  /** Replaces the standard tools, e.g. the demo's read_file alone. */
  tools?: (workspace: Workspace) => Tool[];
  /** Decides every tool call before it runs (default: all may run). */
  policy?: ToolPolicy;
  /** Replaces the chat client built from `config` (the tests' scripted model). */
  model?: ChatModel;
  /** Chat client options beyond the config (retries, delays, timeouts). */
  chat?: Partial<Omit<ChatClientOptions, "baseURL" | "apiKey" | "model">>;
}

/** The assembled agent and the parts some callers look into. */
export interface Assembly {
  agent: Agent;
  workspace: Workspace;
  /** The live tool set the agent calls through; tools added or removed go with the next request. */
  tools: ToolSet;
  model: ChatModel;
  compactor: Compactor;
  /** The AGENTS.md read into the system prompt, when there is one. */
  instructions: ProjectInstructions | undefined;
  /** What bash runs through; undefined when `tools` replaced the standard tools. */
  sandbox: Sandbox | undefined;
}

/**
 * Builds an agent from a provider config.
 * Contract: throws when the workspace is missing or the chosen session cannot be opened;
 * writes nothing to disk until the session's first record.
 * Contract: throws `ConfigError` naming the file and "contextWindow" when the window
 * cannot hold the system prompt (without AGENTS.md), the tool definitions and the reserve.
 */
export async function assemble(options: AssembleOptions): Promise<Assembly> {
  const { config } = options;
  const report = options.report ?? (() => {});
  const { workspace, tools, sandbox, warnings } = await buildTools(options);
  for (const warning of warnings) report(`⚠ ${warning}`);
  const toolSet = new ToolSet(tools, options.policy ? { policy: options.policy } : {});
  const settings = resolveCompactionSettings(config);
  // The base prompt: a large AGENTS.md is the project's matter, not the provider file's.
  const { moreRoots } = workspace;
  const basePrompt = buildSystemPrompt(workspace.root, {
    toolGuidance: toolSet.guidance(),
    moreRoots,
  });
  requireRoom(settings, { system: basePrompt, tools: toolSet.definitions() }, options);
  const model = options.model ?? createChatClient({
    ...options.chat,
    baseURL: config.baseURL,
    apiKey: config.apiKey,
    model: config.model,
    ...(config.compat ? { compat: config.compat } : {}),
  });
  const events = new EventChannel();
  if (options.onEvent) events.subscribe(options.onEvent);
  const compactor = new Compactor({
    model,
    settings,
    onEvent: events.emit,
    summaryInConversation: config.summaryInConversation === true,
  });
  const sessionOptions = {
    model: config.model,
    roots: [workspace.root, ...moreRoots],
    pathsOf: (call: ToolCall) => toolSet.pathsOf(call),
  };
  const { store } = options;
  const session = store
    ? await openSession(store, options.session ?? { kind: "new" }, {
      ...sessionOptions,
      report,
    })
    : new Session(sessionOptions);
  const loadSystemPrompt = async () => {
    const instructions = await loadProjectInstructions(workspace);
    const prompt = buildSystemPrompt(workspace.root, {
      toolGuidance: toolSet.guidance(),
      instructions: instructions?.text,
      moreRoots,
    });
    return { instructions, prompt };
  };
  const { instructions, prompt } = await loadSystemPrompt();
  const agent = new Agent({
    model,
    tools: toolSet,
    session,
    newSession: () => store ? newSession(store, sessionOptions) : new Session(sessionOptions),
    compactor,
    systemPrompt: prompt,
    reloadSystemPrompt: async () => (await loadSystemPrompt()).prompt,
    maxSteps: options.maxSteps,
    events,
  });
  return { agent, workspace, tools: toolSet, model, compactor, instructions, sandbox };
}

/** Throws when not even one message fits between the request's fixed part and the reserve. */
function requireRoom(
  settings: CompactionSettings,
  overhead: RequestOverhead,
  options: AssembleOptions,
): void {
  const fixed = estimateRequestTokens({ ...overhead, messages: [] });
  const { contextWindow, reserveTokens } = settings;
  if (fixed + reserveTokens < contextWindow) return;
  throw new ConfigError(
    `Invalid provider file "${options.configFile ?? "provider.json"}": field "contextWindow" ` +
      `(${contextWindow}) is too small: the system prompt and tool definitions take about ` +
      `${fixed} tokens and reserveTokens is ${reserveTokens}, which leaves no room for messages`,
  );
}

async function buildTools(
  options: AssembleOptions,
): Promise<
  { workspace: Workspace; tools: Tool[]; sandbox: Sandbox | undefined; warnings: string[] }
> {
  if (!options.tools) {
    return await createTools(options.workspaceDir, options.bash ?? { unsandboxedBash: false });
  }
  const workspace = await Workspace.open(options.workspaceDir);
  return { workspace, tools: options.tools(workspace), sandbox: undefined, warnings: [] };
}
