import { assertEquals, assertRejects } from "@std/assert";
import {
  MIN_REPLY_TOKENS,
  OUTPUT_ALLOWANCE_TOKENS,
  Spending,
} from "../../../src/context/spending.ts";
import { estimateMessageTokens, estimateRequestTokens } from "../../../src/context/tokens.ts";
import { ChatError, type ChatRequest } from "../../../src/model/chat_model.ts";
import { emptyTally } from "../../../src/core/spend.ts";
import { ScriptedModel } from "../../support/scripted_model.ts";

const REQUEST: ChatRequest = {
  system: "You are powercode.",
  messages: [{ role: "user", content: "hi" }],
};
const PRICING = { input: 2, cachedInput: 0.5, output: 8 };
const usage = (promptTokens: number, completionTokens: number, cachedTokens = 0) => ({
  promptTokens,
  completionTokens,
  cachedTokens,
});

Deno.test("Spending.meter() counts every reply per task and per session, steps apart from summaries", async () => {
  const spending = new Spending();
  const model = new ScriptedModel([
    { text: "a", usage: usage(1000, 100, 600) },
    { text: "summary", usage: usage(3000, 200) },
    { text: "b", usage: usage(2000, 50, 1500) },
  ]);
  const steps = spending.meter(model, "step", PRICING);
  await steps.complete(REQUEST);
  spending.startTask();
  await spending.meter(model, "summary", PRICING).complete(REQUEST);
  await steps.complete(REQUEST);
  const report = spending.report(PRICING);
  // Each reply at $2 per million uncached, $0.5 cached, $8 out.
  const cost = (uncached: number, cached: number, out: number) =>
    (uncached * 2 + cached * 0.5 + out * 8) / 1e6;
  assertEquals(report.task, {
    requests: 2,
    steps: 1,
    promptTokens: 5000,
    cachedTokens: 1500,
    completionTokens: 250,
    estimated: 0,
    cost: cost(3000, 0, 200) + cost(500, 1500, 50),
    unpriced: 0,
  });
  assertEquals(report.session, {
    requests: 3,
    steps: 2,
    promptTokens: 6000,
    cachedTokens: 2100,
    completionTokens: 350,
    estimated: 0,
    cost: cost(400, 600, 100) + cost(3000, 0, 200) + cost(500, 1500, 50),
    unpriced: 0,
  });
  assertEquals([report.taskCost, report.sessionCost], [report.task.cost, report.session.cost]);
  spending.startSession();
  assertEquals([spending.report().task, spending.report().session], [emptyTally(), emptyTally()]);
});

Deno.test("Spending prices each reply at its model's prices, and gives no cost where one had none", async () => {
  const spending = new Spending();
  const model = new ScriptedModel([{ usage: usage(1000, 0) }, { usage: usage(1000, 0) }]);
  await spending.meter(model, "step", { input: 1, output: 1 }).complete(REQUEST);
  spending.startTask();
  await spending.meter(model, "step", { input: 3, output: 3 }).complete(REQUEST);
  const report = spending.report({ input: 3, output: 3 });
  assertEquals([report.taskCost, report.sessionCost], [0.003, 0.004]);
  await spending.meter(model, "step").complete(REQUEST);
  const mixed = spending.report({ input: 3, output: 3 });
  assertEquals([mixed.taskCost, mixed.sessionCost, mixed.session.unpriced], [
    undefined,
    undefined,
    1,
  ]);
  assertEquals(spending.report().taskCost, undefined);
});

Deno.test("Spending.meter() counts a reply without usage at the estimate", async () => {
  const spending = new Spending();
  await spending.meter(new ScriptedModel(["Hello there."]), "step").complete(REQUEST);
  const reply = { role: "assistant" as const, content: "Hello there.", toolCalls: [] };
  assertEquals(spending.report(), {
    task: spending.report().session,
    session: {
      requests: 1,
      steps: 1,
      promptTokens: estimateRequestTokens(REQUEST),
      cachedTokens: 0,
      completionTokens: estimateMessageTokens(reply),
      estimated: 1,
      cost: 0,
      unpriced: 1,
    },
    limits: {},
  });
});

Deno.test("Spending.admit() refuses a request whose worst case crosses the token budget", async () => {
  const spending = new Spending({ limits: { tokens: 10_000 } });
  await spending.meter(new ScriptedModel([{ usage: usage(3000, 200) }]), "step").complete(REQUEST);
  assertEquals(spending.admit(2000, 4800), undefined);
  assertEquals(
    spending.admit(3000),
    "Budget reached: this session has spent 3200 of its 10000 tokens, and the next request " +
      "could take 7096 more (approx 3000 prompt + 4096 reply tokens); it was not sent",
  );
});

Deno.test("Spending.admit() prices the next request uncached against the cost budget", async () => {
  const pricing = { input: 1000, cachedInput: 100, output: 2000 };
  const spending = new Spending({ limits: { cost: 10 } });
  // 4000 uncached ($4) + 4000 cached ($0.4) + 1000 out ($2): $6.40 spent.
  await spending.meter(new ScriptedModel([{ usage: usage(8000, 1000, 4000) }]), "step", pricing)
    .complete(REQUEST);
  assertEquals(spending.admit(1000, 1000, pricing), undefined); // $3 more: $9.40
  assertEquals(
    spending.admit(2000, 1000, pricing),
    "Budget reached: this session has spent $6.40 of its $10.00, and the next request could " +
      "cost $4.00 more (approx 2000 prompt + 1000 reply tokens); it was not sent",
  );
});

Deno.test("Spending.meter() refuses a summary request beyond the budget before sending it", async () => {
  const spending = new Spending({ limits: { tokens: 100 } });
  const model = new ScriptedModel(["summary"]);
  await assertRejects(
    () => spending.meter(model, "summary").complete(REQUEST),
    ChatError,
    "Budget reached: this session has spent 0 of its 100 tokens",
  );
  assertEquals(model.requests.length, 0);
});

Deno.test("Spending.replyAllowance() bounds the reply to what the budget leaves, never below the floor", async () => {
  assertEquals(new Spending().replyAllowance(3000), undefined, "no limits: no cap");
  const spending = new Spending({ limits: { tokens: 10_000 } });
  assertEquals(spending.replyAllowance(3000), OUTPUT_ALLOWANCE_TOKENS);
  await spending.meter(new ScriptedModel([{ usage: usage(3000, 200) }]), "step").complete(REQUEST);
  // 10000 - 3200 spent - 5000 prompt: 1800 left, which admit() accepts.
  assertEquals(spending.replyAllowance(5000), 1800);
  assertEquals(spending.admit(5000, 1800), undefined);
  // 100 left: the floor, which admit() refuses.
  assertEquals(spending.replyAllowance(6700), MIN_REPLY_TOKENS);
  assertEquals(spending.admit(6700, MIN_REPLY_TOKENS)?.startsWith("Budget reached"), true);
});

Deno.test("Spending.replyAllowance() converts the cost left into reply tokens, within a parent's limits too", () => {
  const pricing = { input: 1000, cachedInput: 100, output: 2000 };
  const parent = new Spending({ limits: { cost: 10, tokens: 9000 } });
  const child = new Spending({ parent });
  // $10 - 2000 prompt tokens at $1000 per million ($2): $8 left, 4000 tokens at $2000.
  assertEquals(child.replyAllowance(2000, pricing), 4000);
  // $4 left after 6000 prompt tokens: 2000 reply tokens.
  assertEquals(child.replyAllowance(6000, pricing), 2000);
  // The parent's 9000 tokens bound it too: 9000 - 7000 prompt.
  assertEquals(child.replyAllowance(7000, { ...pricing, input: 100 }), 2000);
});

Deno.test("Spending.meter() sends a summary request without an output limit with the budget's cap", async () => {
  const spending = new Spending({ limits: { tokens: 1000 } });
  const model = new ScriptedModel(["summary"]);
  await spending.meter(model, "summary").complete(REQUEST);
  const prompt = estimateRequestTokens(REQUEST);
  assertEquals(model.requests[0]?.maxOutputTokens, 1000 - prompt);
});
