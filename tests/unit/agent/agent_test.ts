import { assertEquals, assertRejects, assertStringIncludes } from "@std/assert";
import { ConfigError, type ProviderConfig } from "../../../src/config/provider_config.ts";
import { INTERRUPTED_RESULT } from "../../../src/agent/agent.ts";
import { assemble } from "../../../src/app/assemble.ts";
import { ChatError, type ChatModel } from "../../../src/model/chat_model.ts";
import type { AgentEvent } from "../../../src/core/events.ts";
import type { BudgetLimits } from "../../../src/core/spend.ts";
import { estimateRequestTokens, overheadKey } from "../../../src/context/tokens.ts";
import { MIN_REPLY_TOKENS } from "../../../src/context/spending.ts";
import {
  failedNote,
  interruptedNote,
  NO_REPLY,
  planOffNote,
  planOnNote,
  unfinishedTodoNote,
} from "../../../src/agent/task_notes.ts";
import { defineParams, type Tool, type ToolPolicy } from "../../../src/tools/mod.ts";
import { type Handler, startFakeServer } from "../../support/fake_server.ts";
import { call, ScriptedModel } from "../../support/scripted_model.ts";
import {
  answerSummaries,
  httpError,
  isSummaryRequest,
  type ScriptStep,
  sequence,
  text,
  toolCalls,
} from "../../support/scripts.ts";

/** A tool that waits until aborted, like a long command. */
const WAIT_TOOL: Tool = {
  name: "wait",
  description: "Waits until interrupted",
  effect: "exec",
  parameters: defineParams({}),
  describe: () => "",
  execute: (_args, { signal }) =>
    new Promise((_resolve, reject) =>
      signal.addEventListener("abort", () => reject(new Error("interrupted")), { once: true })
    ),
};

/** A tool that echoes its `text` argument. */
const ECHO_TOOL: Tool<{ text: string }> = {
  name: "echo",
  description: "Echoes text",
  effect: "read",
  parameters: defineParams({ text: { type: "string", description: "What to echo" } }),
  describe: ({ text }) => text,
  execute: ({ text }) => Promise.resolve({ content: `echo: ${text}`, summary: "echoed" }),
};

/** A tool added to the set between two tasks. */
const SHOUT_TOOL: Tool<{ text: string }> = {
  name: "shout",
  description: "Shouts text",
  effect: "read",
  parameters: defineParams({ text: { type: "string", description: "What to shout" } }),
  describe: ({ text }) => text,
  execute: ({ text }) => Promise.resolve({ content: text.toUpperCase(), summary: "shouted" }),
};

interface AgentSetup {
  contextWindow?: number;
  reserveTokens?: number;
  policy?: ToolPolicy;
  maxSteps?: number;
  model?: ChatModel;
  url?: string;
  delays?: number[];
  budget?: BudgetLimits;
}

/** An agent built through the one assembly, with the test tools and collected events. */
async function agentWith(setup: AgentSetup) {
  const events: AgentEvent[] = [];
  const workspaceDir = await Deno.makeTempDir();
  const { agent, tools } = await assemble({
    config: {
      baseURL: setup.url ?? "http://127.0.0.1:9/v1",
      apiKey: "k",
      model: "m",
      contextWindow: setup.contextWindow ?? 32000,
      ...(setup.reserveTokens ? { reserveTokens: setup.reserveTokens } : {}),
    },
    workspaceDir,
    maxSteps: setup.maxSteps ?? 5,
    onEvent: (event) => events.push(event),
    tools: () => [WAIT_TOOL, ECHO_TOOL],
    ...(setup.model ? { model: setup.model } : {}),
    ...(setup.policy ? { policy: setup.policy } : {}),
    ...(setup.budget ? { budget: setup.budget } : {}),
    chat: {
      maxRetries: setup.delays ? 2 : 0,
      delay: (ms) => (setup.delays?.push(ms), Promise.resolve()),
    },
  });
  await Deno.remove(workspaceDir);
  return { agent, tools, events };
}

async function scripted(steps: ScriptStep[], maxSteps = 5, policy?: ToolPolicy) {
  const model = new ScriptedModel(steps);
  return { model, ...await agentWith({ model, maxSteps, ...(policy ? { policy } : {}) }) };
}

async function overServer(handler: Handler, setup: AgentSetup = {}) {
  const server = await startFakeServer({ handler, contextWindow: setup.contextWindow ?? 32000 });
  return { server, ...await agentWith({ ...setup, url: server.url }) };
}

const signal = new AbortController().signal;

Deno.test("Agent.run() emits the exact event sequence of a two-step task", async () => {
  const { agent, events, model } = await scripted([
    { text: "Echoing.", toolCalls: [call("c1", "echo", { text: "hi" })], totalTokens: 50 },
    { text: "Done: hi", totalTokens: 70 },
  ]);
  const result = await agent.run("echo hi", signal);
  assertEquals(result, { status: "done", answer: "Done: hi" });
  const echo = call("c1", "echo", { text: "hi" });
  assertEquals(events, [
    { type: "thinking" },
    { type: "text", text: "Echoing." },
    { type: "tool_start", call: echo, description: { kind: "text", text: "hi" } },
    { type: "tool_end", call: echo, isError: false, summary: "echoed" },
    { type: "thinking" },
    { type: "text", text: "Done: hi" },
  ]);
  assertEquals(agent.view.history, [
    { role: "user", content: "echo hi" },
    { role: "assistant", content: "Echoing.", toolCalls: [echo] },
    { role: "tool", toolCallId: "c1", content: "echo: hi", isError: false },
    { role: "assistant", content: "Done: hi", toolCalls: [] },
  ]);
  assertEquals(model.requests[1]?.messages.at(-1), {
    role: "tool",
    toolCallId: "c1",
    content: "echo: hi",
    isError: false,
  });
  assertEquals(agent.view.usage, {
    totalTokens: 70,
    historyLength: 4,
    overhead: overheadKey(agent.requestOverhead),
  });
});

Deno.test("Agent.run() ends with status budget before the request that would cross it", async () => {
  const usage = { promptTokens: 5000, completionTokens: 100, cachedTokens: 0 };
  const model = new ScriptedModel([
    { toolCalls: [call("c1", "echo", { text: "hi" })], usage },
    "never sent",
  ]);
  // After 5100 spent, the next request leaves less than the shortest reply allowance.
  const { agent } = await agentWith({ model, budget: { tokens: 5300 } });
  const result = await agent.run("echo hi", signal);
  assertEquals(result.status, "budget");
  const error = result.status === "budget" ? result.error : "";
  assertStringIncludes(error, "Budget reached: this session has spent 5100 of its 5300 tokens");
  assertStringIncludes(error, `+ ${MIN_REPLY_TOKENS} reply tokens`);
  assertEquals(model.requests.length, 1);
  assertEquals(agent.view.history.map((message) => message.role), [
    "user",
    "assistant",
    "tool",
    "user",
  ]);
  assertEquals(agent.view.history.at(-1)?.content, failedNote(error));
  assertEquals(agent.spend()?.task.steps, 1);
});

Deno.test("assemble() refuses a cost budget while a profile has no prices", async () => {
  const workspaceDir = await Deno.makeTempDir();
  const config = {
    baseURL: "http://127.0.0.1:9/v1",
    apiKey: "k",
    model: "m",
    contextWindow: 32000,
  };
  const providers = {
    defaultProfile: "a",
    named: true,
    budget: { cost: 1 },
    profiles: new Map<string, ProviderConfig>([
      ["a", { ...config, pricing: { input: 1, output: 1 } }],
      ["b", config],
    ]),
  };
  try {
    const error = await assertRejects(
      () => assemble({ providers, workspaceDir, maxSteps: 1, tools: () => [] }),
      ConfigError,
    );
    assertEquals(
      error.message,
      'Cannot use field "budget.cost" without prices: add "pricing" to profile "b" of provider ' +
        'file "provider.json" (dollars per million tokens: {"input": N, "cachedInput": N, "output": N})',
    );
  } finally {
    await Deno.remove(workspaceDir);
  }
});

Deno.test("Agent.run() stops at the step limit with a message and a valid history", async () => {
  const loop = (id: string) => ({ toolCalls: [call(id, "echo", { text: id })] });
  const { agent, model } = await scripted([loop("a"), loop("b"), loop("c")], 2);
  const result = await agent.run("loop", signal);
  assertEquals(result, {
    status: "step_limit",
    error:
      'Stopped after 2 model calls (--max-steps 2); the task is unfinished, say "continue" to go on',
  });
  assertEquals(model.requests.length, 2);
  assertEquals(agent.view.history.map((message) => message.role), [
    "user",
    "assistant",
    "tool",
    "assistant",
    "tool",
  ]);
});

Deno.test("Agent.run() answers an unknown tool with an error result and goes on", async () => {
  const { agent, events } = await scripted([
    { toolCalls: [call("x", "delete_everything", {})] },
    "I cannot do that.",
  ]);
  assertEquals(await agent.run("delete", signal), {
    status: "done",
    answer: "I cannot do that.",
  });
  const message = 'Unknown tool "delete_everything": available tools are wait, echo';
  assertEquals(agent.view.history[2], {
    role: "tool",
    toolCallId: "x",
    content: `Error: ${message}`,
    isError: true,
  });
  assertEquals(events.find((event) => event.type === "tool_end"), {
    type: "tool_end",
    call: call("x", "delete_everything", {}),
    isError: true,
    summary: message,
  });
});

Deno.test("Agent.run() answers malformed JSON arguments with an error result and goes on", async () => {
  const { agent, model } = await scripted([
    { toolCalls: [call("m", "echo", '{"text": "unclosed')] },
    { toolCalls: [call("p", "echo", '{"text":"x","__proto__":"y"}')] },
    "Fixed.",
  ]);
  assertEquals(await agent.run("echo", signal), { status: "done", answer: "Fixed." });
  assertEquals(agent.view.history[2], {
    role: "tool",
    toolCallId: "m",
    content: 'Error: Cannot run echo: arguments are not valid JSON: "{\\"text\\": \\"unclosed"',
    isError: true,
  });
  assertEquals(agent.view.history[4], {
    role: "tool",
    toolCallId: "p",
    content: 'Error: Cannot run echo: unknown argument "__proto__"',
    isError: true,
  });
  assertEquals(model.requests.length, 3);
});

Deno.test("Agent.run() reports a retry event and waits the server's retry-after, not a real clock", async () => {
  const delays: number[] = [];
  const { server, agent, events } = await overServer(
    sequence([httpError(503, "overloaded", { headers: { "retry-after": "7" } }), text("ok")]),
    { delays },
  );
  await using _ = server;
  assertEquals(await agent.run("hi", signal), { status: "done", answer: "ok" });
  assertEquals(delays, [7000]);
  const retry = events.find((event) => event.type === "retry");
  assertEquals(retry?.type === "retry" && [retry.attempt, retry.delayMs], [1, 7000]);
  assertEquals(server.requests.length, 2);
});

Deno.test("Agent.run() answers every tool call when interrupted during a tool", async () => {
  const { server, agent, events } = await overServer(sequence([
    toolCalls([{ name: "wait", args: {}, id: "a" }, { name: "wait", args: {}, id: "b" }]),
  ]));
  await using _ = server;
  const controller = new AbortController();
  const running = agent.run("wait twice", controller.signal);
  while (!events.some((event) => event.type === "tool_start")) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  controller.abort();
  assertEquals(await running, { status: "interrupted" });
  assertEquals(agent.view.history.slice(2), [
    {
      role: "tool",
      toolCallId: "a",
      content: `Error: interrupted\n${INTERRUPTED_RESULT}`,
      isError: true,
    },
    { role: "tool", toolCallId: "b", content: INTERRUPTED_RESULT, isError: true },
    { role: "user", content: interruptedNote() },
  ]);
});

Deno.test("Agent.run() records usage against the history length it covers", async () => {
  const { server, agent } = await overServer(sequence([text("hello")]));
  await using _ = server;
  const result = await agent.run("hi", signal);
  assertEquals(result, { status: "done", answer: "hello" });
  assertEquals(agent.view.usage?.historyLength, 2);
  assertEquals(agent.view.usage?.totalTokens, server.requests[0]!.promptTokens + 1);
});

Deno.test("Agent.run() compacts and retries once on overflow, then fails with one line", async () => {
  const overflow = httpError(400, "This model's maximum context length is 9 tokens.", {
    code: "context_length_exceeded",
  });
  const { server, agent } = await overServer(
    answerSummaries(sequence([text("first"), overflow, overflow])),
  );
  await using _ = server;
  await agent.run("one", signal);
  const result = await agent.run("two", signal);
  assertEquals(result.status, "failed");
  if (result.status === "failed") {
    assertStringIncludes(result.error, "still too long after compaction");
  }
  const kinds = server.requests.map((request) => isSummaryRequest(request) ? "summary" : "task");
  assertEquals(kinds, ["task", "task", "summary", "task"], "task, overflow, summary, retried task");
  assertEquals(agent.view.compaction?.compactedUntil, 2);
  assertEquals(agent.view.history.slice(2), [
    { role: "user", content: "two" },
    { role: "assistant", content: NO_REPLY, toolCalls: [] },
    { role: "user", content: failedNote(result.status === "failed" ? result.error : "") },
  ]);
});

Deno.test("Agent.run() fails with one line, sending nothing, when no request fits the window", async () => {
  const { agent: probe } = await scripted([]);
  const fixed = estimateRequestTokens({ ...probe.requestOverhead, messages: [] });
  const model = new ScriptedModel(["never sent"]);
  const threshold = fixed + 30;
  const { agent, events } = await agentWith({
    model,
    contextWindow: threshold + 1000,
    reserveTokens: 1000,
  });
  const cannotFit =
    `Cannot fit the request into the context window: even the shortest working memory is over ${threshold} tokens`;
  const error =
    `${cannotFit}; still too long after compaction: lower "contextWindow" in provider.json to the model's real window`;
  assertEquals(await agent.run("word ".repeat(400), signal), { status: "failed", error });
  assertEquals(model.requests.length, 0);
  assertEquals(events, [
    { type: "warning", message: `${cannotFit}; compacting and retrying once` },
    {
      type: "warning",
      message: "Nothing to compact: the working memory holds only the latest step",
    },
  ]);
  assertEquals(agent.view.history.slice(1), [
    { role: "assistant", content: NO_REPLY, toolCalls: [] },
    { role: "user", content: failedNote(error) },
  ]);
  assertEquals(agent.view.usage, undefined);
});

Deno.test("Agent.startNewSession() continues in an empty session; context() describes it", async () => {
  const { agent } = await scripted(["one"]);
  await agent.run("first", signal);
  const first = agent.view;
  await agent.startNewSession();
  assertEquals(first.history.length, 2);
  assertEquals(agent.view.history, []);
  const status = agent.context();
  assertEquals([status.messages, status.contextWindow, status.summary], [0, 32000, false]);
});

Deno.test("Agent.compact() reports nothing to compact on a fresh session", async () => {
  const { agent, events } = await scripted([]);
  assertEquals(await agent.compact("", signal), { type: "nothing_to_compact" });
  assertEquals(events.map((event) => event.type), ["warning"]);
});

Deno.test("Agent.subscribe() passes on the agent's and its compactor's events until unsubscribed", async () => {
  const { agent, events } = await scripted(["one", "two"]);
  const heard: AgentEvent[] = [];
  const unsubscribe = agent.subscribe((event) => heard.push(event));
  await agent.compact("", signal);
  await agent.run("first", signal);
  unsubscribe();
  await agent.run("second", signal);
  assertEquals(heard.map((event) => event.type), ["warning", "thinking", "text"]);
  assertEquals(events.length, 5, "the listener given to assemble() hears everything");
});

Deno.test("Agent.run() ends a task with one line when the model fails, and tells the model next time", async () => {
  const { agent, model } = await scripted([
    new ChatError("auth", "The provider refused the key"),
    "Hello.",
  ]);
  assertEquals(await agent.run("hi", signal), {
    status: "failed",
    error: "The provider refused the key",
  });
  await agent.run("again", signal);
  assertEquals(model.requests[1]?.messages, [
    { role: "user", content: "hi" },
    { role: "assistant", content: NO_REPLY, toolCalls: [] },
    { role: "user", content: failedNote("The provider refused the key") },
    { role: "user", content: "again" },
  ]);
});

Deno.test("Agent.run() keeps the partial answer of an interrupted reply, then a note", async () => {
  const controller = new AbortController();
  const model: ChatModel = {
    complete(_request, options = {}) {
      options.onText?.("The first half");
      controller.abort();
      return Promise.reject(new ChatError("aborted", "Interrupted"));
    },
  };
  const { agent } = await agentWith({ model });
  assertEquals(await agent.run("explain", controller.signal), { status: "interrupted" });
  assertEquals(agent.view.history, [
    { role: "user", content: "explain" },
    { role: "assistant", content: "The first half", toolCalls: [] },
    { role: "user", content: interruptedNote() },
  ]);
});

Deno.test("Agent.run() sends the tool set as it is at each step: unchanged definitions byte-identical, an added tool in the next request", async () => {
  const { server, agent, tools } = await overServer(sequence([
    toolCalls([{ id: "e", name: "echo", args: { text: "a" } }]),
    text("first"),
    text("second"),
  ]));
  await using _ = server;
  assertEquals(await agent.run("one", signal), { status: "done", answer: "first" });
  tools.add(SHOUT_TOOL);
  assertEquals(await agent.run("two", signal), { status: "done", answer: "second" });
  const sent = server.requests.map(({ raw }) => JSON.stringify((raw as { tools: unknown }).tools));
  assertEquals(sent.length, 3);
  assertEquals(sent[1], sent[0]);
  assertEquals(server.requests.map(({ body }) => body?.tools?.map((tool) => tool.function.name)), [
    ["wait", "echo"],
    ["wait", "echo"],
    ["wait", "echo", "shout"],
  ]);
  assertEquals(JSON.parse(sent[2] ?? "").at(-1), {
    type: "function",
    function: {
      name: "shout",
      description: "Shouts text",
      parameters: {
        type: "object",
        properties: { text: { type: "string", description: "What to shout" } },
        required: ["text"],
      },
    },
  });
});

Deno.test("Agent.run() answers a call the policy refuses with an error result the model reads, and goes on", async () => {
  const policy: ToolPolicy = ({ effect }) =>
    effect === "exec"
      ? { kind: "refuse", reason: "commands are off in this mode; answer from what you know" }
      : { kind: "allow" };
  const { agent, events, model } = await scripted(
    [
      { toolCalls: [call("w", "wait", {}), call("e", "echo", { text: "hi" })] },
      "Answered without waiting.",
    ],
    5,
    policy,
  );
  assertEquals(await agent.run("wait, then echo", signal), {
    status: "done",
    answer: "Answered without waiting.",
  });
  const refusal = "Cannot run wait: commands are off in this mode; answer from what you know";
  assertEquals(model.requests[1]?.messages.slice(-2), [
    { role: "tool", toolCallId: "w", content: `Error: ${refusal}`, isError: true },
    { role: "tool", toolCallId: "e", content: "echo: hi", isError: false },
  ]);
  assertEquals(events.filter((event) => event.type === "tool_end"), [
    { type: "tool_end", call: call("w", "wait", {}), isError: true, summary: refusal },
    {
      type: "tool_end",
      call: call("e", "echo", { text: "hi" }),
      isError: false,
      summary: "echoed",
    },
  ]);
});

Deno.test("Agent.setPlanMode() tells the model with the next task only; the system prompt and tools stay the same", async () => {
  const { agent, model } = await scripted(["One.", "Two.", "Three.", "Four.", "Five."]);
  await agent.run("first", signal);
  agent.setPlanMode(true);
  assertEquals([agent.planMode, agent.view.planMode], [true, true], "recorded at once");
  await agent.run("second", signal);
  await agent.run("third", signal);
  agent.setPlanMode(false);
  agent.setPlanMode(true);
  await agent.run("fourth", signal);
  agent.setPlanMode(false);
  await agent.run("fifth", signal);
  const users = agent.view.history.flatMap((message) =>
    message.role === "user" ? [message.content] : []
  );
  assertEquals(users, [
    "first",
    planOnNote(),
    "second",
    "third",
    "fourth",
    planOffNote(),
    "fifth",
  ]);
  const [first, ...rest] = model.requests;
  for (const request of rest) {
    assertEquals([request.system, request.tools], [first?.system, first?.tools]);
  }
});

Deno.test("Agent in plan mode refuses an exec tool the sandbox does not confine; a new session is told again", async () => {
  const { agent, model } = await scripted([
    { toolCalls: [call("w", "wait", {}), call("e", "echo", { text: "hi" })] },
    "Refused.",
    "New session.",
  ]);
  agent.setPlanMode(true);
  assertEquals(agent.view.planMode, false, "a session without history records it later");
  await agent.run("wait, then echo", signal);
  assertEquals(agent.view.planMode, true);
  assertEquals(model.requests[1]?.messages.slice(-2), [
    {
      role: "tool",
      toolCallId: "w",
      content: "Error: Cannot run wait: plan mode is on, and this tool could change files: plan " +
        "mode makes only bash's workspace read-only, and the tool does not declare that it only " +
        "reads; use bash (read-only in plan mode), or ask the user to leave plan mode (/plan " +
        "off) to make changes",
      isError: true,
    },
    { role: "tool", toolCallId: "e", content: "echo: hi", isError: false },
  ]);
  await agent.startNewSession();
  await agent.run("again", signal);
  assertEquals(agent.view.history.slice(0, 2), [
    { role: "user", content: planOnNote() },
    { role: "user", content: "again" },
  ]);
});

Deno.test("assemble() reads a new session's unfinished TODO.md steps; the first task's note lists them, once", async () => {
  const workspaceDir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${workspaceDir}/TODO.md`,
      "# TODO\n\n- [x] Read\n- [ ] Write (in progress)\n- [ ] Test\n",
    );
    const model = new ScriptedModel(["Going on.", "Next."]);
    const { agent, unfinishedTodo } = await assemble({
      config: { baseURL: "http://127.0.0.1:9/v1", apiKey: "k", model: "m", contextWindow: 32000 },
      workspaceDir,
      maxSteps: 5,
      model,
      tools: () => [ECHO_TOOL],
    });
    const open = [
      { text: "Write", status: "in_progress" as const },
      { text: "Test", status: "pending" as const },
    ];
    assertEquals(unfinishedTodo, open);
    await agent.run("go on", signal);
    await agent.run("next", signal);
    assertEquals(model.requests[1]?.messages.filter((message) => message.role === "user"), [
      { role: "user", content: unfinishedTodoNote(open) },
      { role: "user", content: "go on" },
      { role: "user", content: "next" },
    ]);
  } finally {
    await Deno.remove(workspaceDir, { recursive: true });
  }
});
