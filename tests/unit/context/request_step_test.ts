import { assertEquals } from "@std/assert";
import { ChatError, type ChatRequest } from "../../../src/model/chat_model.ts";
import { Compactor } from "../../../src/context/compactor.ts";
import { requestStep } from "../../../src/context/request_step.ts";
import { overheadKey } from "../../../src/context/tokens.ts";
import { resolveCompactionSettings } from "../../../src/context/settings.ts";
import { Session } from "../../../src/session/session.ts";
import type { CompactionEvent } from "../../../src/core/events.ts";
import type { AssistantMessage } from "../../../src/core/messages.ts";
import { calls, result } from "../../support/messages.ts";
import { ScriptedModel } from "../../support/scripted_model.ts";
import type { ScriptStep } from "../../support/scripts.ts";
import { pathsOf } from "../../support/tool_paths.ts";

const OVERHEAD = { system: "You are powercode.", tools: [] };
const signal = new AbortController().signal;

/** A compactor over a scripted model, and what `requestStep` reported and sent. */
function setup(steps: ScriptStep[], contextWindow = 8000) {
  const model = new ScriptedModel(steps);
  const events: (CompactionEvent | { type: "discard_partial" })[] = [];
  const settings = resolveCompactionSettings({ contextWindow, maxOutputTokens: 1000 });
  const compactor = new Compactor({ model, settings, onEvent: (event) => events.push(event) });
  const sent: ChatRequest[] = [];
  const options = {
    signal,
    onEvent: (event: CompactionEvent | { type: "discard_partial" }) => events.push(event),
    send: (request: ChatRequest) => {
      sent.push(request);
      return model.complete(request);
    },
  };
  return { model, events, compactor, sent, options };
}

function longTask(steps: number): Session {
  const session = new Session({ pathsOf });
  session.append({ role: "user", content: "Read every file and report" });
  for (let step = 1; step <= steps; step++) {
    session.append(calls(`c${step}`));
    session.append(result(`c${step}`, `file ${step}: ` + "x".repeat(1200)));
  }
  return session;
}

Deno.test("requestStep() sends the working memory, appends the reply and records its usage", async () => {
  const { compactor, sent, options } = setup([{ text: "Hello.", totalTokens: 42 }]);
  const session = new Session();
  session.append({ role: "user", content: "hi" });
  const outcome = await requestStep(compactor, session, OVERHEAD, options);
  const reply: AssistantMessage = { role: "assistant", content: "Hello.", toolCalls: [] };
  assertEquals(outcome, { type: "reply", reply: { message: reply, totalTokens: 42 } });
  assertEquals(sent, [{
    ...OVERHEAD,
    messages: [{ role: "user", content: "hi" }],
    maxOutputTokens: 1000,
  }]);
  assertEquals(session.history.at(-1), reply);
  assertEquals(session.usage, {
    totalTokens: 42,
    historyLength: 2,
    overhead: overheadKey(OVERHEAD),
  });
});

Deno.test("requestStep() keeps the usage of a reply to a shortened request out of the session", async () => {
  const { compactor, sent, options } = setup([
    new ChatError("server", "Server error 500"),
    { text: "Done.", totalTokens: 5900 },
  ]);
  const session = longTask(20);
  session.recordUsage({ totalTokens: 7000, historyLength: 39 });
  const outcome = await requestStep(compactor, session, OVERHEAD, options);
  assertEquals(outcome.type, "reply");
  assertEquals(sent[0]?.messages.length, 41);
  assertEquals(sent[0]?.messages[2]?.content.includes("characters omitted"), true);
  assertEquals(session.history.at(-1)?.content, "Done.");
  assertEquals(session.usage, { totalTokens: 7000, historyLength: 39 });
});

Deno.test("requestStep() compacts and sends once more after an overflow, then gives up", async () => {
  const overflow = () => {
    const error = new ChatError("context_overflow", "The request is too long for the model: 9");
    error.partialOutput = true;
    return error;
  };
  const { compactor, events, sent, options } = setup([overflow(), "summary", overflow()]);
  const session = longTask(3);
  const outcome = await requestStep(compactor, session, OVERHEAD, options);
  assertEquals(outcome, {
    type: "too_long",
    message:
      'The request is too long for the model: 9; still too long after compaction: lower "contextWindow" in provider.json to the model\'s real window',
  });
  assertEquals(sent.length, 2);
  assertEquals(session.compaction?.summary.startsWith("summary"), true);
  assertEquals(events.slice(0, 3).map((event) => event.type), [
    "discard_partial",
    "warning",
    "compaction_start",
  ]);
  assertEquals(events[1], {
    type: "warning",
    message: "The request is too long for the model: 9; compacting and retrying once",
  });
  assertEquals(session.history.length, 7);
});

Deno.test("requestStep() asks the budget with the context's estimate and sends nothing it refuses", async () => {
  const { compactor, sent, options } = setup([{ text: "never" }]);
  const session = new Session();
  session.append({ role: "user", content: "hi" });
  const asked: [number, number | undefined][] = [];
  const outcome = await requestStep(compactor, session, OVERHEAD, {
    ...options,
    admit: (prompt, output) => {
      asked.push([prompt, output]);
      return "Budget reached: no";
    },
  });
  assertEquals(outcome, { type: "budget", message: "Budget reached: no" });
  assertEquals(asked, [[compactor.status(session, OVERHEAD).estimatedTokens, 1000]]);
  assertEquals([sent.length, session.history.length], [0, 1]);
});

Deno.test("requestStep() without an output limit sends the budget's reply allowance as the cap", async () => {
  const model = new ScriptedModel([{ text: "short" }]);
  const settings = resolveCompactionSettings({ contextWindow: 8000 });
  const compactor = new Compactor({ model, settings });
  const session = new Session();
  session.append({ role: "user", content: "hi" });
  const asked: [number, number | undefined][] = [];
  const sent: ChatRequest[] = [];
  const outcome = await requestStep(compactor, session, OVERHEAD, {
    signal,
    onEvent: () => {},
    send: (request) => {
      sent.push(request);
      return model.complete(request);
    },
    replyAllowance: (prompt) => 700 - prompt,
    admit: (prompt, output) => {
      asked.push([prompt, output]);
      return undefined;
    },
  });
  assertEquals(outcome.type, "reply");
  const estimate = asked[0]?.[0] ?? 0;
  assertEquals(asked, [[estimate, 700 - estimate]]);
  assertEquals(sent[0]?.maxOutputTokens, 700 - estimate);
});
