/**
 * `deno task demo`: the seed's context-compaction demo, a second composition root beside
 * main.ts. It reads a large file into a Session as 14 read_file rounds, compacts it with
 * the seed's budget (window 16000, reserve 4000, keep recent 4000) through the model in
 * provider.json, writes the state before and after to `workspace/context-demo/` and asks
 * one question that only the compacted memory can answer.
 *
 * The file has 14 blocks of 40 lines "context demo block N line M: …", about 3.8 KB or
 * 1100 estimated tokens each, so the session (about 16 000 estimated tokens with the system
 * prompt and the read_file definition) is over the 12 000-token threshold.
 * Line 1 of each block carries a code word; the question asks for the code word of block
 * 3, which only the summary holds after compaction.
 *
 * Exit codes: 0 done, 1 a chat or compaction failure, 2 a flag or provider config error;
 * failures print one line on stderr.
 *
 * @module
 */
import { parseArgs } from "@std/cli/parse-args";
import type { Agent } from "../agent/mod.ts";
import { assemble } from "./assemble.ts";
import {
  ConfigError,
  defaultConfig,
  loadProviderProfiles,
  type ProviderConfig,
  Redactor,
} from "../config/mod.ts";
import { type Compactor, estimateTextTokens } from "../context/mod.ts";
import type { Message } from "../core/mod.ts";
import { createFrontEnd, type Renderer } from "../ui/mod.ts";
import { writeTo } from "../terminal/mod.ts";
import { createReadFileTool, type Tool, Workspace } from "../tools/mod.ts";

const WORKSPACE_DIR = "workspace";
const DEMO_DIR = `${WORKSPACE_DIR}/context-demo`;
/** The large file as the model names it: relative to the workspace. */
const LARGE_FILE = "context-demo/large-context.txt";
const BLOCKS = 14;
const LINES_PER_BLOCK = 40;
const CODE_WORDS =
  "amber birch cobalt dune ember fjord garnet harbor indigo juniper kestrel lagoon meadow nickel"
    .split(" ");
const FILLER = "filler text, repeated so that the blocks add up to a large context";
const BUDGET = { contextWindow: 16000, reserveTokens: 4000, keepRecentTokens: 4000 };
const TASK = `Read ${LARGE_FILE} in blocks of ${LINES_PER_BLOCK} lines and remember what ` +
  "each block says; the first line of each block has its code word.";
const QUESTION = "Which blocks of the file did you read, and what is the code word of block " +
  "3? Answer from the conversation so far, without calling tools.";
const encoder = new TextEncoder();

/** The working memory as written to context-before.json and context-after.json. */
interface MemorySnapshot {
  estimatedTokens: number;
  compactedUntil: number;
  messages: Message[];
}

async function main(args: string[]): Promise<number> {
  let config: ProviderConfig;
  try {
    // A file of profiles runs the demo on its default profile.
    const file = await loadProviderProfiles(
      providerFlag(args) ?? Deno.env.get("POWERCODE_PROVIDER") ?? "provider.json",
      (name) => Deno.env.get(name),
      { workspaceDir: WORKSPACE_DIR },
    );
    config = defaultConfig(file);
    requireWindow(config);
  } catch (error) {
    return fail(error, 2);
  }
  try {
    return await run(config);
  } catch (error) {
    return fail(error, 1);
  }
}

/** The objects every step of the demo uses. */
interface Demo {
  agent: Agent;
  compactor: Compactor;
  renderer: Renderer;
}

async function run(config: ProviderConfig): Promise<number> {
  await Deno.mkdir(DEMO_DIR, { recursive: true });
  // The demo's own budget replaces the provider file's; its output limit would not fit it.
  const { maxOutputTokens: _, reserveTokens: _r, keepRecentTokens: _k, ...endpoint } = config;
  const readFile = createReadFileTool(await Workspace.open(WORKSPACE_DIR));
  const bytes = await writeDemoFile("large-context.txt", largeContext());
  const { agent, compactor } = await assemble({
    config: { ...endpoint, ...BUDGET },
    workspaceDir: WORKSPACE_DIR,
    maxSteps: 1,
    tools: () => [readFile],
    history: await readInBlocks(readFile),
  });
  // Plain lines, also on a terminal: no task here runs under a status line.
  const renderer = await createFrontEnd(agent, {
    screen: false,
    color: Deno.stdout.isTerminal() && !Deno.env.get("NO_COLOR"),
    interactive: true,
    redactor: Redactor.forConfig(config),
    fullReasoning: false,
    model: config.model,
  });
  const demo = { agent, compactor, renderer };
  renderer.line(
    `powercode context demo · ${config.model} · window ${BUDGET.contextWindow}, reserve ` +
      `${BUDGET.reserveTokens}, keep recent ${BUDGET.keepRecentTokens} tokens`,
  );
  renderer.line(`large-context.txt: ${BLOCKS} blocks of ${LINES_PER_BLOCK} lines, ${bytes} bytes`);
  if (!await compactSession(demo)) return 1;
  return await askFromMemory(demo);
}

/** The session's start: the large file read in, one read_file round per block. */
async function readInBlocks(readFile: Tool): Promise<Message[]> {
  const session: Message[] = [];
  session.push({ role: "user", content: TASK });
  const signal = new AbortController().signal;
  for (let block = 1; block <= BLOCKS; block++) {
    const args = {
      path: LARGE_FILE,
      offset: (block - 1) * LINES_PER_BLOCK + 1,
      limit: LINES_PER_BLOCK,
    };
    const call = {
      id: `call_block_${block}`,
      name: readFile.name,
      arguments: JSON.stringify(args),
    };
    session.push({ role: "assistant", content: `Reading block ${block}.`, toolCalls: [call] });
    const output = await readFile.execute(args, { signal });
    const isError = output.isError ?? false;
    session.push({ role: "tool", toolCallId: call.id, content: output.content, isError });
  }
  return session;
}

/** Compacts the session and writes the files; false (with one line on stderr) when it failed. */
async function compactSession(demo: Demo): Promise<boolean> {
  const { agent, renderer } = demo;
  const before = snapshot(demo);
  const beforeBytes = await writeDemoFile("context-before.json", toJson(before));
  renderer.line(
    `Before: ${before.messages.length} messages, approx ${before.estimatedTokens} tokens ` +
      `(threshold ${BUDGET.contextWindow - BUDGET.reserveTokens}); context-before.json ` +
      `${beforeBytes} bytes`,
  );
  // Over the threshold, as the demo's budget makes it: what the agent does on its own.
  const outcome = await agent.compact("", new AbortController().signal, "automatic");
  const compaction = agent.view.compaction;
  if (outcome.type !== "compacted" || compaction === undefined) {
    const reason = outcome.type === "failed" ? outcome.reason : "nothing to compact";
    fail(`Cannot compact the demo session: ${reason}`, 1);
    return false;
  }
  const summary = compaction.summary;
  const summaryBytes = await writeDemoFile("compressed-summary.md", `${summary}\n`);
  const after = snapshot(demo);
  const afterBytes = await writeDemoFile("context-after.json", toJson(after));
  renderer.line(
    `After: ${after.messages.length} messages, approx ${after.estimatedTokens} tokens, ` +
      `compactedUntil ${after.compactedUntil}; context-after.json ${afterBytes} bytes`,
  );
  renderer.line(
    `Summary: approx ${estimateTextTokens(summary)} tokens; compressed-summary.md ` +
      `${summaryBytes} bytes`,
  );
  renderer.line(`Files in ${DEMO_DIR}/`);
  return true;
}

/** Asks the question from the compacted working memory and prints the streamed answer. */
async function askFromMemory({ agent, renderer }: Demo): Promise<number> {
  renderer.line(`\nQuestion: ${QUESTION}`);
  renderer.line("Answer:");
  const result = await agent.run(QUESTION, new AbortController().signal);
  if (result.status === "failed") return fail(result.error, 1);
  const answer = result.status === "done" ? result.answer.trim() : "";
  renderer.finish({ status: "done", answer });
  if (answer !== "") return 0;
  const reply = agent.view.history.findLast((message) => message.role === "assistant");
  const calls = reply?.role === "assistant" ? reply.toolCalls.map((call) => call.name) : [];
  return fail(`The model answered without text${calls.length ? ` (it called ${calls})` : ""}`, 1);
}

/** The 14 blocks; line 1 of block N names its code word, the others repeat the filler. */
function largeContext(): string {
  const lines: string[] = [];
  for (let block = 1; block <= BLOCKS; block++) {
    lines.push(`context demo block ${block} line 1: the code word is ${CODE_WORDS[block - 1]}`);
    for (let line = 2; line <= LINES_PER_BLOCK; line++) {
      lines.push(`context demo block ${block} line ${line}: ${FILLER}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

function snapshot({ agent, compactor }: Demo): MemorySnapshot {
  const status = agent.context();
  return {
    estimatedTokens: status.estimatedTokens,
    compactedUntil: status.compactedUntil,
    messages: compactor.workingMemory(agent.view),
  };
}

/** Writes `text` to a file in the demo directory and returns its size in bytes. */
async function writeDemoFile(name: string, text: string): Promise<number> {
  const bytes = encoder.encode(text);
  await Deno.writeFile(`${DEMO_DIR}/${name}`, bytes);
  return bytes.length;
}

function toJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function providerFlag(args: string[]): string | undefined {
  const parsed = parseArgs(args, {
    string: ["provider"],
    unknown: (arg) => {
      throw new TypeError(`Unknown argument "${arg}": the demo takes only --provider FILE`);
    },
  });
  return parsed.provider;
}

function requireWindow(config: ProviderConfig): void {
  if (config.contextWindow >= BUDGET.contextWindow) return;
  throw new ConfigError(
    `Cannot run the demo with model "${config.model}": it needs a context window of at least ` +
      `${BUDGET.contextWindow} tokens, the provider file says ${config.contextWindow}`,
  );
}

function fail(error: unknown, code: number): number {
  const message = error instanceof Error ? error.message : String(error);
  writeTo(Deno.stderr)(`powercode demo: ${message}\n`);
  return code;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
