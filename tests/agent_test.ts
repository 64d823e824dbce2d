import { assertEquals, assertStringIncludes } from "@std/assert";
import { Agent, INTERRUPTED_RESULT } from "../src/agent.ts";
import { createChatClient } from "../src/chat.ts";
import { Compactor } from "../src/context/compactor.ts";
import { Session } from "../src/context/session.ts";
import { resolveCompactionSettings } from "../src/context/settings.ts";
import type { AgentEvent } from "../src/events.ts";
import { ToolRegistry } from "../src/tools/registry.ts";
import type { Tool } from "../src/tools/registry.ts";
import { startFakeServer } from "./support/fake_server.ts";
import type { Handler } from "./support/fake_server.ts";
import {
  answerSummaries,
  httpError,
  isSummaryRequest,
  sequence,
  text,
  toolCalls,
} from "./support/scripts.ts";

/** A tool that waits until aborted, like a long command. */
const WAIT_TOOL: Tool = {
  name: "wait",
  description: "Waits until interrupted",
  parameters: { type: "object", properties: {}, required: [] },
  execute: (_args, { signal }) =>
    new Promise((_resolve, reject) =>
      signal.addEventListener("abort", () => reject(new Error("interrupted")), { once: true })
    ),
};

async function agentFor(handler: Handler, contextWindow = 32000) {
  const server = await startFakeServer({ handler, contextWindow });
  const model = createChatClient({ baseURL: server.url, apiKey: "k", model: "m", maxRetries: 0 });
  const events: AgentEvent[] = [];
  const session = new Session();
  const agent = new Agent({
    model,
    tools: new ToolRegistry([WAIT_TOOL]),
    session,
    compactor: new Compactor({ model, settings: resolveCompactionSettings({ contextWindow }) }),
    systemPrompt: "You are a test.",
    maxSteps: 5,
    onEvent: (event) => events.push(event),
  });
  return { server, agent, session, events };
}

Deno.test("Agent.run() answers every tool call when interrupted during a tool", async () => {
  const { server, agent, session, events } = await agentFor(sequence([
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
  assertEquals(session.history.slice(2), [
    { role: "tool", toolCallId: "a", content: `Error: interrupted\n${INTERRUPTED_RESULT}` },
    { role: "tool", toolCallId: "b", content: INTERRUPTED_RESULT },
  ]);
});

Deno.test("Agent.run() records usage against the history length it covers", async () => {
  const { server, agent, session } = await agentFor(sequence([text("hello")]));
  await using _ = server;
  const result = await agent.run("hi", new AbortController().signal);
  assertEquals(result, { status: "done", answer: "hello" });
  assertEquals(session.usage?.historyLength, 2);
  assertEquals(session.usage?.totalTokens, server.requests[0]!.promptTokens + 1);
});

Deno.test("Agent.run() compacts and retries once on overflow, then fails with one line", async () => {
  const overflow = httpError(400, "This model's maximum context length is 9 tokens.", {
    code: "context_length_exceeded",
  });
  const { server, agent, session } = await agentFor(
    answerSummaries(sequence([text("first"), overflow, overflow])),
  );
  await using _ = server;
  await agent.run("one", new AbortController().signal);
  const result = await agent.run("two", new AbortController().signal);
  assertEquals(result.status, "failed");
  if (result.status === "failed") {
    assertStringIncludes(result.error, "still too long after compaction");
  }
  const kinds = server.requests.map((request) => isSummaryRequest(request) ? "summary" : "task");
  assertEquals(kinds, ["task", "task", "summary", "task"], "task, overflow, summary, retried task");
  assertEquals(session.compaction?.compactedUntil, 2);
  assertEquals(session.history.length, 3);
});
