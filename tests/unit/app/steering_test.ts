/**
 * Agent.run() with messages the user queued while it runs (issue 19.8): taken after the
 * results of the step's tool calls (never between a call and its result), in order and
 * once, kept in history; a message queued while the last answer streamed goes on with the
 * task.
 */
import { assertEquals } from "@std/assert";
import { assemble } from "../../../src/app/assemble.ts";
import type { UserMessage } from "../../../src/core/messages.ts";
import { defineParams, type Tool } from "../../../src/tools/mod.ts";
import { call, ScriptedModel } from "../../support/scripted_model.ts";
import type { ScriptStep } from "../../support/scripts.ts";

const signal = new AbortController().signal;

async function scripted(steps: ScriptStep[], tool: Tool<{ text: string }>) {
  const model = new ScriptedModel(steps);
  const workspaceDir = await Deno.makeTempDir();
  const { agent } = await assemble({
    config: { baseURL: "http://127.0.0.1:9/v1", apiKey: "k", model: "m", contextWindow: 32000 },
    workspaceDir,
    maxSteps: 5,
    tools: () => [tool as Tool],
    model,
  });
  await Deno.remove(workspaceDir);
  return { agent, model };
}

/** A tool that runs `during` while it works (the user typing), then echoes. */
function echoTool(during: () => void): Tool<{ text: string }> {
  return {
    name: "echo",
    description: "Echoes text",
    effect: "read",
    parameters: defineParams({ text: { type: "string", description: "What to echo" } }),
    describe: ({ text }) => text,
    execute: ({ text }) => {
      during();
      return Promise.resolve({ content: `echo: ${text}`, summary: "echoed" });
    },
  };
}

Deno.test("Agent.run() sends messages queued during a tool call after its results, in order, once", async () => {
  const queue: UserMessage[] = [];
  let taken = 0;
  const { agent, model } = await scripted([
    { toolCalls: [call("c1", "echo", { text: "a" }), call("c2", "echo", { text: "b" })] },
    "Both read.",
  ], echoTool(() => queue.push({ role: "user", content: `queued ${queue.length + 1}` })));
  const result = await agent.run("go", signal, {
    steering: () => {
      taken++;
      return queue.splice(0);
    },
  });
  assertEquals(result, { status: "done", answer: "Both read." });
  const sent = model.requests[1]?.messages.slice(1);
  assertEquals(sent, [
    {
      role: "assistant",
      content: "",
      toolCalls: [call("c1", "echo", { text: "a" }), call("c2", "echo", { text: "b" })],
    },
    { role: "tool", toolCallId: "c1", content: "echo: a", isError: false },
    { role: "tool", toolCallId: "c2", content: "echo: b", isError: false },
    { role: "user", content: "queued 1" },
    { role: "user", content: "queued 2" },
  ]);
  assertEquals(agent.view.history.slice(1), [...sent ?? [], {
    role: "assistant",
    content: "Both read.",
    toolCalls: [],
  }]);
  assertEquals([model.requests.length, taken], [2, 2]);
});

Deno.test("Agent.run() goes on with a message queued while the answer streamed", async () => {
  const queue: UserMessage[] = [{ role: "user", content: "also the tests", shown: "also" }];
  const { agent, model } = await scripted(["First answer.", "Tests too."], echoTool(() => {}));
  const result = await agent.run("fix it", signal, {
    shown: "[pasted 2 lines]",
    steering: () => queue.splice(0),
  });
  assertEquals(result, { status: "done", answer: "Tests too." });
  assertEquals(model.requests.length, 2);
  assertEquals(agent.view.history, [
    { role: "user", content: "fix it", shown: "[pasted 2 lines]" },
    { role: "assistant", content: "First answer.", toolCalls: [] },
    { role: "user", content: "also the tests", shown: "also" },
    { role: "assistant", content: "Tests too.", toolCalls: [] },
  ]);
});

Deno.test("Agent.run() takes no queued message once interrupted", async () => {
  const controller = new AbortController();
  let taken = 0;
  const { agent } = await scripted(
    [{ toolCalls: [call("c1", "echo", { text: "a" })] }],
    echoTool(() => controller.abort()),
  );
  const result = await agent.run("go", controller.signal, {
    steering: () => {
      taken++;
      return [{ role: "user", content: "never" }];
    },
  });
  assertEquals([result.status, taken], ["interrupted", 0]);
  assertEquals(agent.view.history.some((message) => message.content === "never"), false);
});
