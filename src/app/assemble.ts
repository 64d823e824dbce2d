/**
 * The one wiring of powercode's parts: config → tools → tool set → profiles (per profile:
 * chat client → compaction settings → compactor) → system prompt → session → Agent.
 * main.ts, the demo, the bench and the tests all build their agent here.
 *
 * @module
 */
import { Agent, buildSystemPrompt, type ModelSlot } from "../agent/mod.ts";
import {
  type ChatClientOptions,
  type ChatModel,
  createChatClient,
  profileModel,
  resolveCompat,
} from "../model/mod.ts";
import {
  ConfigError,
  type ProviderConfig,
  type ProviderProfiles,
  singleProfile,
} from "../config/mod.ts";
import {
  Compactor,
  type RequestOverhead,
  resolveCompactionSettings,
  Spending,
} from "../context/mod.ts";
import {
  type BudgetLimits,
  EventChannel,
  type EventSink,
  type Message,
  type TodoItem,
  type ToolCall,
} from "../core/mod.ts";
import { Profiles, roomProblem } from "./profiles.ts";
import {
  newSession,
  openSession,
  Session,
  type SessionChoice,
  type SessionStore,
} from "../session/mod.ts";
import {
  allOf,
  BackgroundJobs,
  createTools,
  type CreateToolsOptions,
  PlanGuard,
  type Sandbox,
  ServerLauncher,
  todoItemsOf,
  type Tool,
  type ToolPolicy,
  type Tools,
  ToolSet,
  unfinishedTodo,
  Workspace,
} from "../tools/mod.ts";
import { trackedIgnored } from "../workspace/mod.ts";
import type { McpServers } from "../mcp/mod.ts";
import { type McpSetup, startMcpServers } from "./mcp_start.ts";
import { type Undo, undoOff } from "../undo/mod.ts";
import { createSnapshots, createTaskUndo, type UndoSetup } from "./undo_setup.ts";
import {
  type ApprovalMode,
  HostGrants,
  Permissions,
  type RuleSaver,
  saveAllowRule,
} from "../permissions/mod.ts";
import {
  type HookCommand,
  NO_SETTINGS,
  type PermissionRules,
  type Sourced,
} from "../settings/mod.ts";
import { Hooks } from "../hooks/mod.ts";
import {
  createSkillTool,
  type CustomCommand,
  type InstructionFile,
  instructionSections,
  loadCommands,
  loadedLine,
  loadSessionSetup,
  type SetupPlaces,
  type Skill,
  skillsSection,
} from "../setup/mod.ts";
import { TaskScope } from "./task_limits.ts";
import { createTaskTool, loadAgents, TASK_TOOL } from "../subagents/mod.ts";
import { type ChildRequest, childRunner, type ChildSetup } from "./child_agent.ts";
import type { AgentScopeSources } from "./agent_scope_report.ts";

/**
 * Everything an agent is built from; only `workspaceDir`, `maxSteps` and either `config` or
 * `providers` are required.
 */
export interface AssembleOptions {
  /** One endpoint, the single profile; unused when `providers` is given. */
  config?: ProviderConfig;
  /** The provider file's profiles. */
  providers?: ProviderProfiles;
  /** The profile to start on (`--model`); default: the session's last one, else the file's. */
  profile?: string;
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
  /** `print` when a `-p` run opens it: written into a new session's header. */
  origin?: "print";
  /**
   * One-line notices, in order: bash sandbox warnings, session notices (resumed, load
   * warnings), a skipped AGENTS.md (again at each new session), then MCP notices (servers
   * that did not start, skipped project files).
   */
  report?: (line: string) => void;
  /** How bash is set up (sandbox probe, hidden paths, unsandboxed mode). */
  bash?: CreateToolsOptions;
  /**
   * Probe the sandbox during the start, so that its warning comes first among the notices (the
   * REPL); else the first command, hook, stdio server or preview probes it, and its warning
   * goes to `report` then.
   */
  probeAtStart?: boolean;
  /** Replaces the standard tools, e.g. the demo's read_file alone. */
  tools?: (workspace: Workspace) => Tool[];
  /** Decides every tool call before it runs, after plan mode's policy (default: all may run). */
  policy?: ToolPolicy;
  /** Start in plan mode (`--plan`); default: as the session last recorded it, else off. */
  planMode?: boolean;
  /** Replaces the chat client of every profile (the tests' scripted model). */
  model?: ChatModel;
  /** The command line's budget limits, each in place of the provider file's `budget` field. */
  budget?: BudgetLimits;
  /** Chat client options beyond the config (retries, delays, timeouts). */
  chat?: Partial<Omit<ChatClientOptions, "baseURL" | "apiKey" | "model">>;
  /** Messages a new session starts with (the demo's file read in); default none. */
  history?: readonly Message[];
  /** Where MCP servers are configured; without it none are started. */
  mcp?: McpSetup;
  /** Where task snapshots go; without it tasks are not snapshotted (no /undo). */
  undo?: UndoSetup;
  /**
   * Where the user's setup lies besides the first root: where powercode was started (for
   * nested AGENTS.md) and the user's configuration directory; without it, the first root's only.
   */
  setup?: Omit<SetupPlaces, "workspace">;
  /** The approval mode, the rules and where "always" saves (default: auto, no rules). */
  approval?: ApprovalSetup;
  /**
   * Builds a subagent (see `childRunner`): its budget slice, instructions, tools, depth and
   * parent session; it gets the `task` tool unless `withheld` says why not. Without it, an
   * assembly of the standard tools gets the `task` tool.
   */
  child?: ChildSetup;
  /** The settings files' hooks (`Settings.hooks`); a subagent gets the tool hooks only. */
  hooks?: readonly Sourced<HookCommand>[];
}

/** What the permissions start with. */
export interface ApprovalSetup {
  mode: ApprovalMode;
  /** The settings files' rules (`Settings.permissions`). */
  rules: PermissionRules;
  /** The user's settings file, where "always" saves; the project's when it may take rules. */
  files: { user: string; project?: string };
  /** Replaces the write of a saved rule (default: into the settings file's JSON). */
  save?: RuleSaver;
  /** The hosts commands may reach (`Settings.network.allow`), for `/permissions`. */
  domains?: readonly Sourced<string>[];
}

/** The user's setup as the run holds it. */
export interface UserSetup {
  /** The custom commands, read once at the start of the run. */
  readonly commands: readonly CustomCommand[];
  /** The skills of the current session, read when it started. */
  readonly skills: readonly Skill[];
}

/** The assembled agent and the parts some callers look into. */
export interface Assembly {
  agent: Agent;
  workspace: Workspace;
  /** The live tool set the agent calls through; tools added or removed go with the next request. */
  tools: ToolSet;
  /** The first profile's chat model and compactor. */
  model: ChatModel;
  compactor: Compactor;
  /** The provider file's profiles, for `/model` and `/effort`. */
  profiles: Profiles;
  /** The instruction files read into the first session's system prompt, in order. */
  instructions: InstructionFile[];
  /** Custom commands and the session's skills. */
  setup: UserSetup;
  /** Limits of one task (a custom command's profile and tools, `/init`'s one file). */
  taskScope: TaskScope;
  /** The MCP servers, when any is configured; close them when the program ends. */
  mcp: McpServers | undefined;
  /** What bash runs through; undefined when `tools` replaced the standard tools. */
  sandbox: Sandbox | undefined;
  /** Snapshots around tasks and /undo, /redo, /rewind; off without `options.undo`. */
  undo: Undo;
  /** A new session's unfinished steps of TODO.md, which its first task's note lists. */
  unfinishedTodo: TodoItem[];
  /** The approval mode, the rules and the questions before tool calls. */
  permissions: Permissions;
  /** bash's background commands (`/ps`, `/kill`); close them when the program ends. */
  jobs: BackgroundJobs;
  /** The user's hooks, run in the sandbox (`Notification` is the front end's to send). */
  hooks: Hooks;
  /** What the agents of the `task` tool are given, for `/scope`; undefined without the tool. */
  agentScopes: AgentScopeSources | undefined;
}

/**
 * Builds an agent from a provider config.
 * Contract: throws when the workspace is missing or the chosen session cannot be opened;
 * writes nothing to disk until the session's first record.
 * Contract: throws `ConfigError` naming the file and "contextWindow" when the window
 * cannot hold the system prompt (without AGENTS.md), the tool definitions and the reserve.
 */
export async function assemble(options: AssembleOptions): Promise<Assembly> {
  const report = options.report ?? (() => {});
  // fetch reaches the settings' hosts and those the user allows when asked.
  const hosts = new HostGrants(options.bash?.allowedHosts ?? (() => []));
  const built = await buildTools(options, () => hosts.list());
  const { workspace, warnings, servers, sandbox, plan, jobs } = built;
  const { child } = options;
  const tools = child
    ? built.tools.filter((tool) => child.keep(tool, plan.confines(tool.name)))
    : built.tools;
  const { moreRoots } = workspace;
  for (const warning of warnings) report(`⚠ ${warning}`);
  if (options.probeAtStart) await sandbox?.ready();
  const tracked = await trackedIgnored(workspace.path, workspace.ignore);
  if (tracked.length > 0) report(trackedIgnoredLine(tracked));
  const taskScope = new TaskScope(workspace, {
    runner: sandbox,
    confined: (name) => plan.confines(name),
  });
  const events = new EventChannel();
  const snapshots = options.undo &&
    createSnapshots(options.undo, { workspace, ...(sandbox ? { commands: sandbox } : {}) });
  const approval = options.approval;
  const permissions = new Permissions({
    mode: approval?.mode ?? "auto",
    rules: approval?.rules ?? NO_SETTINGS.permissions,
    files: approval?.files ?? { user: "settings.json" },
    save: approval?.save ?? saveAllowRule,
    emit: events.emit,
    ...(approval?.domains ? { domains: approval.domains } : {}),
    ...(snapshots ? { snapshots } : {}),
    sandboxed: sandbox?.mode === "bwrap",
    ...(sandbox ? { checkDir: (dir: string) => sandbox.grantDir(dir) } : {}),
    hosts,
  });
  const made: { agent?: Agent } = {};
  const hooks = new Hooks(options.hooks ?? [], {
    runner: sandbox,
    sessionId: () => made.agent?.view.id,
    cwd: workspace.root,
    warn: (message) => events.emit({ type: "warning", message }),
  });
  // The hooks come last: a call refused by a rule or the user runs no hook.
  const policies = [
    plan.policy,
    taskScope.policy,
    permissions.policy,
    ...(options.policy ? [options.policy] : []),
    hooks.policy(),
  ];
  const withheld = child?.withheld;
  const toolSet = new ToolSet(tools, {
    policy: allOf(...policies),
    ...(withheld !== undefined ? { withheld: new Map([[TASK_TOOL, withheld]]) } : {}),
  });
  if (options.onEvent) events.subscribe(options.onEvent);
  const providers = providersOf(options);
  const spending = child?.spending ?? createSpending(providers, options);
  const profiles: Profiles = new Profiles(
    providers,
    options.configFile ?? "provider.json",
    (name, config): ModelSlot => buildSlot(name, config, { options, profiles, events, spending }),
  );
  if (options.profile !== undefined && !profiles.has(options.profile)) {
    const names = profiles.names().map((name) => `"${name}"`).join(", ");
    throw new ConfigError(
      `Unknown --model "${options.profile}": the profiles of "${profiles.configFile}" are ${names}`,
    );
  }
  const sessionOptions = {
    // A new session's header names the model it starts on, read when its file is created.
    get model() {
      return profiles.config(made.agent?.slot.name ?? profiles.defaultProfile).model;
    },
    roots: workspace.roots.map((root) => root.real),
    ...(options.origin ? { origin: options.origin } : {}),
    ...(child?.parentSession !== undefined ? { parentSession: child.parentSession } : {}),
    pathsOf: (call: ToolCall) => toolSet.pathsOf(call),
    todoOf: todoItemsOf,
  };
  const { store } = options;
  const session = store
    ? await openSession(store, options.session ?? { kind: "new" }, {
      ...sessionOptions,
      report,
    })
    : new Session(sessionOptions);
  for (const message of options.history ?? []) session.append(message);
  const active = startProfile(profiles, options.profile, session.profile, report);
  plan.set(options.planMode ?? session.planMode);
  const unfinished = session.history.length === 0 ? await unfinishedTodo(workspace) : [];
  const places: SetupPlaces = { workspace, ...options.setup };
  let agentScopes: AgentScopeSources | undefined;
  if (!options.tools && withheld === undefined) {
    const agents = child?.agents ?? await loadAgents(places, report);
    agentScopes = {
      agents,
      workspace,
      tools,
      confines: (name) => plan.confines(name),
      hosts: sandbox?.hosts ?? [],
    };
    const run = childRunner({
      depth: child?.depth ?? 0,
      agents,
      sessionId: () => made.agent?.view.id,
      workspace,
      spending,
      profiles,
      profile: () => made.agent?.slot.name ?? active,
      toolNames: () => toolSet.definitions().map((definition) => definition.name),
      assemble: (request) => assemble(childOptions(options, workspace, request)),
    });
    toolSet.add(createTaskTool(agents, run));
  }
  const mcp = options.mcp &&
    await startMcpServers(options.mcp, {
      workspaceDir: options.workspaceDir,
      toolSet,
      servers,
      report,
    });
  // The base prompt: a large AGENTS.md is the project's matter, not the provider file's.
  const overhead = {
    system: buildSystemPrompt(workspace.root, { toolGuidance: toolSet.guidance(), moreRoots }),
    tools: toolSet.definitions(),
  };
  await stopOnThrow(mcp, () => requireRoom(profiles, active, overhead));
  const slot = profiles.slot(active);
  let skills: readonly Skill[] = [];
  // Skills and instruction files are read once per session: its system prompt stays fixed.
  const loadSystemPrompt = async () => {
    const setup = await loadSessionSetup(places, report);
    skills = setup.skills;
    // Only a run that has skills gets the tool, so the definitions of others stay the same.
    const skillTool = createSkillTool(() => skills);
    if (
      skills.length > 0 && !toolSet.effectOf("skill") && (child?.keep(skillTool, false) ?? true)
    ) {
      toolSet.add(skillTool);
    }
    const skillText = skillsSection(setup.skills);
    const prompt = buildSystemPrompt(workspace.root, {
      toolGuidance: toolSet.guidance(),
      moreRoots,
      sections: [
        ...skillText === undefined ? [] : [{ heading: "Skills", text: skillText }],
        ...instructionSections(setup.instructions),
        ...child ? [child.instructions] : [],
      ],
    });
    return { instructions: setup.instructions, prompt };
  };
  const { instructions, prompt } = await loadSystemPrompt();
  const commands = await loadCommands(places, report);
  const undo = options.undo
    ? createTaskUndo(options.undo, {
      workspace,
      ...(sandbox ? { commands: sandbox } : {}),
      ...(snapshots ? { snapshots } : {}),
      warn: (message) => events.emit({ type: "warning", message }),
      // Reads of the workspace or of the network change no file.
      mayChange: (call) => !["read", "net"].includes(toolSet.effectOf(call.name) ?? ""),
    })
    : undoOff();
  const agent = made.agent = new Agent({
    slot,
    defaultProfile: profiles.defaultProfile,
    tools: toolSet,
    session,
    newSession: () => store ? newSession(store, sessionOptions) : new Session(sessionOptions),
    systemPrompt: prompt,
    // A new session says that it read AGENTS.md again, as the start does.
    reloadSystemPrompt: async () => {
      const reloaded = await loadSystemPrompt();
      if (reloaded.instructions.length > 0) report(loadedLine(reloaded.instructions));
      return reloaded.prompt;
    },
    maxSteps: options.maxSteps,
    events,
    spending,
    plan,
    unfinishedTodo: unfinished,
    undo,
    ...(child ? {} : { hooks }),
  });
  return {
    agent,
    workspace,
    tools: toolSet,
    model: slot.model,
    compactor: slot.compactor,
    instructions,
    setup: {
      commands,
      get skills() {
        return skills;
      },
    },
    taskScope,
    profiles,
    mcp,
    sandbox,
    unfinishedTodo: unfinished,
    undo,
    permissions,
    jobs,
    hooks,
    agentScopes,
  };
}

/**
 * A child's assembly options: the parent's provider, bash, approval, setup and session store
 * (a new session), within the child's roots (the parent's hidden around them), and no MCP,
 * undo or history.
 */
function childOptions(
  options: AssembleOptions,
  workspace: Workspace,
  request: ChildRequest,
): AssembleOptions {
  const { network: _network, allowedHosts: _hosts, ...offline } = options.bash ??
    { unsandboxedBash: false };
  const bash: CreateToolsOptions = request.network
    ? options.bash ?? { unsandboxedBash: false }
    : offline;
  const [first, ...more] = request.roots;
  return {
    ...(options.config ? { config: options.config } : {}),
    ...(options.providers ? { providers: options.providers } : {}),
    profile: request.profile,
    ...(options.configFile !== undefined ? { configFile: options.configFile } : {}),
    workspaceDir: first ?? options.workspaceDir,
    maxSteps: request.maxSteps ?? options.maxSteps,
    bash: first === undefined ? bash : {
      ...bash,
      moreDirs: more,
      // Commands see the parent's roots only where the child's lie in them.
      hide: [...bash.hide ?? [], ...workspace.roots.map((root) => root.real)],
    },
    ...(options.model ? { model: options.model } : {}),
    ...(options.chat ? { chat: options.chat } : {}),
    ...(options.approval ? { approval: options.approval } : {}),
    ...(options.setup ? { setup: options.setup } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.store ? { store: options.store } : {}),
    child: request.setup,
  };
}

/** Runs `check`; the MCP servers are stopped when it throws. */
async function stopOnThrow(mcp: McpServers | undefined, check: () => void): Promise<void> {
  try {
    check();
  } catch (error) {
    await mcp?.close();
    throw error;
  }
}

function providersOf(options: AssembleOptions): ProviderProfiles {
  if (options.providers) return options.providers;
  if (options.config) return singleProfile(options.config);
  throw new TypeError("Cannot assemble an agent: give a provider config or profiles");
}

/**
 * The profile a run starts on: `--model`, else the one the session last recorded (when the
 * file still has it), else the file's default.
 */
function startProfile(
  profiles: Profiles,
  chosen: string | undefined,
  recorded: string | undefined,
  report: (line: string) => void,
): string {
  if (chosen !== undefined) return chosen;
  if (recorded === undefined || profiles.has(recorded)) return recorded ?? profiles.defaultProfile;
  report(
    `⚠ The session ran on profile "${recorded}", which "${profiles.configFile}" no longer has; ` +
      `going on with "${profiles.defaultProfile}"`,
  );
  return profiles.defaultProfile;
}

/**
 * The spending meter within the file's budget, the command line's limits in place; throws
 * `ConfigError` for a cost limit while some profile has no prices.
 */
function createSpending(providers: ProviderProfiles, options: AssembleOptions): Spending {
  const limits = { ...providers.budget, ...options.budget };
  const unpriced = [...providers.profiles].filter(([, config]) => !config.pricing);
  if (limits.cost === undefined || unpriced.length === 0) return new Spending({ limits });
  const source = options.budget?.cost !== undefined ? "--max-cost" : 'field "budget.cost"';
  const where = providers.named
    ? ` to profile ${unpriced.map(([name]) => JSON.stringify(name)).join(", ")} of`
    : " to";
  throw new ConfigError(
    `Cannot use ${source} without prices: add "pricing"${where} provider file "${
      options.configFile ?? "provider.json"
    }" (dollars per million tokens: {"input": N, "cachedInput": N, "output": N})`,
  );
}

/**
 * Profile `name`'s chat model (sending its effort, marking its replies) and compactor, both
 * metered at the profile's prices.
 */
function buildSlot(
  name: string,
  config: ProviderConfig,
  parts: { options: AssembleOptions; profiles: Profiles; events: EventChannel; spending: Spending },
): ModelSlot {
  const { options, profiles, events, spending } = parts;
  const { pricing } = config;
  const chat = options.model ?? createChatClient({
    ...options.chat,
    baseURL: config.baseURL,
    apiKey: config.apiKey,
    model: config.model,
    ...(config.compat ? { compat: config.compat } : {}),
  });
  const where = profiles.named ? ` of profile "${name}"` : "";
  const model = profileModel(chat, {
    model: config.model,
    effort: () => profiles.effort(name),
    effortField: resolveCompat(config.baseURL, config.model, config.compat).reasoningEffortField,
    effortRejected: (detail) =>
      `${detail}; unset "reasoningEffort"${where} in "${profiles.configFile}", or type /effort off`,
  });
  const compactor = new Compactor({
    model: spending.meter(model, "summary", pricing),
    settings: resolveCompactionSettings(config),
    onEvent: events.emit,
    summaryInConversation: config.summaryInConversation !== false,
  });
  const step = spending.meter(model, "step", pricing);
  const vision = config.vision === true ? { vision: true } : {};
  return { name, model: step, compactor, ...(pricing ? { pricing } : {}), ...vision };
}

/**
 * Throws `ConfigError` when not even one message fits between the request's fixed part and
 * the reserve of profile `name`.
 */
function requireRoom(profiles: Profiles, name: string, overhead: RequestOverhead): void {
  const problem = roomProblem(profiles.slot(name).compactor.settings, overhead);
  if (problem === undefined) return;
  const where = profiles.named ? `profile "${name}": ` : "";
  throw new ConfigError(`Invalid provider file "${profiles.configFile}": ${where}${problem}`);
}

async function buildTools(
  options: AssembleOptions,
  allowedHosts: () => readonly string[],
): Promise<Omit<Tools, "sandbox"> & { sandbox: Sandbox | undefined }> {
  if (!options.tools) {
    const bash = options.bash ?? { unsandboxedBash: false };
    const report = options.report ?? (() => {});
    const warn = (warning: string) => report(`⚠ ${warning}`);
    return await createTools(options.workspaceDir, { ...bash, allowedHosts, warn });
  }
  const workspace = await Workspace.open(options.workspaceDir);
  // Replaced tools come without a sandbox: stdio MCP servers are refused with them, and so
  // are their exec tools in plan mode.
  const servers = new ServerLauncher(workspace.path, "unavailable");
  const plan = new PlanGuard(workspace);
  return {
    workspace,
    tools: options.tools(workspace),
    warnings: [],
    servers,
    sandbox: undefined,
    plan,
    jobs: new BackgroundJobs({
      start: () => Promise.reject(new Error("background commands need the standard tools")),
    }),
  };
}

/**
 * The warning for tracked files the ignore rules ignore: the sandbox masks them on disk, but a
 * command reads them from git's objects.
 */
function trackedIgnoredLine(paths: readonly string[]): string {
  const shown = paths.slice(0, 5).join(", ") +
    (paths.length > 5 ? `, … ${paths.length - 5} more` : "");
  return `⚠ .powercodeignore ignores ${paths.length} file${paths.length === 1 ? "" : "s"} git ` +
    `tracks (${shown}): commands can still read ${paths.length === 1 ? "it" : "them"} from ` +
    "git's objects (git show HEAD:PATH); untrack with git rm --cached, and rewrite history " +
    "that was shared";
}
