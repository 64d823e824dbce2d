/**
 * Builds powercode's real agent for in-process benchmarks through the one assembly
 * main.ts uses, without a terminal.
 *
 * @module
 */
import type { Agent } from "../src/agent/agent.ts";
import { assemble, type Assembly } from "../src/app/assemble.ts";
import type { Compactor, RequestOverhead } from "../src/context/mod.ts";
import type { CompactionEvent } from "../src/core/events.ts";
import type { SessionStore } from "../src/session/mod.ts";
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
  return (await assembleBench("http://127.0.0.1:9/v1", { workspace })).agent.requestOverhead;
}

/**
 * Builds an agent over session `sessionId` of `store`, talking to `url` with a 128k window
 * and default settings.
 * Contract: bash is wired as unavailable (no sandbox probe); tool definitions are the real ones.
 */
export async function createBenchAgent(
  url: string,
  options: {
    store: SessionStore;
    sessionId: string;
    workspace: string;
    onCompaction?: (event: CompactionEvent) => void;
  },
): Promise<BenchAgent> {
  const { agent, compactor } = await assembleBench(url, options);
  return { agent, compactor, overhead: agent.requestOverhead };
}

/** What `assembleBench` wires besides the workspace. */
export interface BenchAssemblyOptions {
  /** The session to resume; a new in-memory one without. */
  store?: SessionStore;
  sessionId?: string;
  workspace: string;
  /** Receives compaction events and warnings. */
  onCompaction?: (event: CompactionEvent) => void;
  /** Default `CONTEXT_WINDOW`. */
  contextWindow?: number;
  /** Sent as each request's output limit and the reserve's lower bound, when set. */
  maxOutputTokens?: number;
  /** provider.json's `summaryInConversation`. */
  summaryInConversation?: boolean;
}

/**
 * Assembles powercode's agent against `url` as main.ts does, for the benchmarks.
 * Contract: bash is wired as unavailable (no sandbox probe); tool definitions are the real ones.
 */
export function assembleBench(url: string, options: BenchAssemblyOptions): Promise<Assembly> {
  const { store, sessionId, onCompaction, maxOutputTokens } = options;
  return assemble({
    config: {
      baseURL: url,
      apiKey: "sk-bench",
      model: BENCH_MODEL,
      contextWindow: options.contextWindow ?? CONTEXT_WINDOW,
      ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
      ...(options.summaryInConversation === undefined
        ? {}
        : { summaryInConversation: options.summaryInConversation }),
    },
    workspaceDir: options.workspace,
    maxSteps: 10,
    ...(store && sessionId ? { store, session: { kind: "id" as const, id: sessionId } } : {}),
    bash: { unsandboxedBash: false, probe: noSandbox },
    onEvent: (event) => {
      const { type } = event;
      if (type === "compaction_start" || type === "compaction_end" || type === "warning") {
        onCompaction?.(event);
      }
    },
  });
}

function noSandbox(): Promise<boolean> {
  return Promise.resolve(false);
}
