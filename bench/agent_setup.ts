/**
 * Wires powercode's real agent, compactor, chat client and tools for in-process benchmarks,
 * as main.ts does, without a terminal.
 *
 * @module
 */
import { Agent } from "../src/agent.ts";
import { createChatClient } from "../src/chat.ts";
import { Compactor } from "../src/context/compactor.ts";
import type { Session } from "../src/context/session.ts";
import { resolveCompactionSettings } from "../src/context/settings.ts";
import type { RequestOverhead } from "../src/context/tokens.ts";
import type { CompactionEvent } from "../src/events.ts";
import { buildSystemPrompt } from "../src/system_prompt.ts";
import { createTools } from "../src/tools/mod.ts";
import { ToolRegistry } from "../src/tools/registry.ts";
import { BENCH_MODEL } from "./history.ts";

/** The context window every in-process benchmark uses. */
export const CONTEXT_WINDOW = 128_000;

/** The agent's parts. */
export interface BenchAgent {
  agent: Agent;
  compactor: Compactor;
  overhead: RequestOverhead;
}

/** The system prompt and tool definitions sent with each request for `workspace`. */
export async function requestOverhead(workspace: string): Promise<RequestOverhead> {
  const tools = await createTools(workspace, { unsandboxedBash: false, probe: noSandbox });
  return {
    system: buildSystemPrompt(tools.workspace.root),
    tools: new ToolRegistry(tools.tools).definitions(),
  };
}

/** What `createBenchAgent` wires. */
export interface BenchAgentOptions {
  session: Session;
  workspace: string;
  onCompaction?: (event: CompactionEvent) => void;
  /** Default `CONTEXT_WINDOW`. */
  contextWindow?: number;
  /** Sent as each request's output limit and the reserve's lower bound, when set. */
  maxOutputTokens?: number;
  /** Model calls per task; default 10. */
  maxSteps?: number;
}

/**
 * Builds an agent over `session` talking to `url`, by default with a 128k window and default
 * settings.
 * Contract: bash is wired as unavailable (no sandbox probe); tool definitions are the real ones.
 */
export async function createBenchAgent(
  url: string,
  options: BenchAgentOptions,
): Promise<BenchAgent> {
  const tools = await createTools(options.workspace, { unsandboxedBash: false, probe: noSandbox });
  const registry = new ToolRegistry(tools.tools);
  const model = createChatClient({ baseURL: url, apiKey: "sk-bench", model: BENCH_MODEL });
  const limit = options.maxOutputTokens === undefined
    ? {}
    : { maxOutputTokens: options.maxOutputTokens };
  const compactor = new Compactor({
    model,
    settings: resolveCompactionSettings({
      contextWindow: options.contextWindow ?? CONTEXT_WINDOW,
      ...limit,
    }),
    onEvent: options.onCompaction ?? (() => {}),
  });
  const systemPrompt = buildSystemPrompt(tools.workspace.root);
  const agent = new Agent({
    model,
    tools: registry,
    session: options.session,
    compactor,
    systemPrompt,
    maxSteps: options.maxSteps ?? 10,
    ...limit,
    onEvent: (event) => {
      // The agent's own warnings (a context overflow) matter to the compaction benchmarks too.
      if (event.type === "warning") options.onCompaction?.(event);
    },
  });
  return { agent, compactor, overhead: { system: systemPrompt, tools: registry.definitions() } };
}

function noSandbox(): Promise<boolean> {
  return Promise.resolve(false);
}
