/**
 * The Agent's model slot, switched between profiles: the switch as a session record, the
 * usage snapshot of another model left out of the estimate, and the compaction rounds that
 * make a long history fit a smaller window before the first request to it.
 */
import { assert, assertEquals } from "@std/assert";
import { assemble } from "../../../src/app/assemble.ts";
import type { AgentEvent } from "../../../src/core/events.ts";
import type { ProviderProfiles } from "../../../src/config/profiles.ts";
import type { ChatModel, ChatRequest } from "../../../src/model/chat_model.ts";
import { estimateRequestTokens, overheadKey } from "../../../src/context/tokens.ts";
import { ScriptedModel } from "../../support/scripted_model.ts";
import type { ScriptStep } from "../../support/scripts.ts";

const ENDPOINT = { baseURL: "http://127.0.0.1:9/v1", apiKey: "k" };

function profiles(windows: Record<string, number>, defaultProfile: string): ProviderProfiles {
  const entries = Object.entries(windows).map(([name, contextWindow]) =>
    [name, { ...ENDPOINT, model: `${name}-model`, contextWindow }] as const
  );
  return { defaultProfile, profiles: new Map(entries), named: true };
}

async function switchable(steps: ScriptStep[] | ChatModel, file: ProviderProfiles) {
  const model = Array.isArray(steps) ? new ScriptedModel(steps) : steps;
  const events: AgentEvent[] = [];
  const workspaceDir = await Deno.makeTempDir();
  try {
    const assembly = await assemble({
      providers: file,
      workspaceDir,
      maxSteps: 3,
      model,
      tools: () => [],
      onEvent: (event) => events.push(event),
    });
    return { ...assembly, model, events };
  } finally {
    await Deno.remove(workspaceDir);
  }
}

const signal = new AbortController().signal;

Deno.test("Agent.useModel() records the switch with the first task of an empty session, at once in one with history", async () => {
  const { agent, profiles: slots } = await switchable(
    ["one", "two"],
    profiles({ small: 16000, big: 64000 }, "small"),
  );
  agent.useModel(slots.slot("big"));
  assertEquals(agent.view.profile, undefined, "nothing is written for an empty session");
  await agent.run("first", signal);
  assertEquals(agent.view.profile, "big");
  agent.useModel(slots.slot("small"));
  assertEquals(agent.view.profile, "small", "recorded at once");
  agent.useModel(slots.slot("big"));
  assertEquals(agent.view.profile, "big");
  agent.useModel(slots.slot("small"));
  await agent.run("second", signal);
  assertEquals([agent.view.profile, agent.view.history.length], ["small", 4]);
});

Deno.test("after a switch the other model's usage snapshot is not trusted: the estimate is the whole request", async () => {
  const { agent, profiles: slots } = await switchable(
    [{ text: "Hello there.", totalTokens: 5 }],
    profiles({ small: 16000, big: 64000 }, "small"),
  );
  await agent.run("hi", signal);
  assertEquals(agent.view.usage, {
    totalTokens: 5,
    historyLength: 2,
    overhead: overheadKey(agent.requestOverhead),
  });
  assertEquals(agent.context().estimatedTokens, 5, "the small model's own count");
  agent.useModel(slots.slot("big"));
  assertEquals(agent.view.usage, undefined);
  const whole = estimateRequestTokens({
    ...agent.requestOverhead,
    messages: agent.view.history,
  });
  assertEquals(agent.context(), {
    estimatedTokens: whole,
    contextWindow: 64000,
    threshold: 64000 - 16000,
    messages: 2,
    summary: false,
    compactedUntil: 0,
  });
});

Deno.test("a switch to a smaller window compacts in rounds until the history fits, before the first request", async () => {
  const requests: ChatRequest[] = [];
  let answer = "word ".repeat(4000);
  const model: ChatModel = {
    complete(request) {
      requests.push(request);
      // A summary request has no tools; every other request gets the next answer.
      const content = request.tools === undefined ? "## Summary\nshort" : answer;
      return Promise.resolve({
        message: { role: "assistant", content, toolCalls: [] },
        totalTokens: undefined,
      });
    },
  };
  const { agent, profiles: slots, events } = await switchable(
    model,
    profiles({ big: 64000, small: 12000 }, "big"),
  );
  for (let n = 0; n < 6; n++) await agent.run(`task ${n}`, signal);
  answer = "Done.";
  agent.useModel(slots.slot("small"));
  const result = await agent.run("now", signal);
  assertEquals(result, { status: "done", answer: "Done." });
  const rounds = events.filter((event) => event.type === "compaction_end").length;
  assert(rounds > 1, `${rounds} compaction rounds`);
  assertEquals(events.filter((event) => event.type === "warning"), [], "nothing is cut");
  const last = requests.at(-1);
  assert(last?.tools !== undefined);
  const tokens = estimateRequestTokens(last);
  assert(tokens <= 12000 - 3000, `the request (${tokens} tokens) fits the small window`);
});
