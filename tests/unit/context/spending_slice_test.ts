import { assertEquals, assertStringIncludes } from "@std/assert";
import { Spending } from "../../../src/context/spending.ts";
import type { ChatRequest } from "../../../src/model/chat_model.ts";
import { ScriptedModel } from "../../support/scripted_model.ts";

const REQUEST: ChatRequest = {
  system: "You are powercode.",
  messages: [{ role: "user", content: "hi" }],
};

Deno.test("Spending with a parent counts each reply in both, the parent without the child's steps", async () => {
  const parent = new Spending({ limits: { tokens: 10_000 } });
  const child = new Spending({ limits: { tokens: 5_000 }, parent });
  const model = new ScriptedModel([
    { text: "a", usage: { promptTokens: 1000, completionTokens: 100, cachedTokens: 0 } },
  ]);
  await child.meter(model, "step").complete(REQUEST);
  assertEquals(child.report().session.steps, 1);
  assertEquals(child.report().session.promptTokens, 1000);
  assertEquals(parent.report().session.steps, 0);
  assertEquals(parent.report().session.requests, 1);
  assertEquals(
    parent.report().session.promptTokens + parent.report().session.completionTokens,
    1100,
  );
});

Deno.test("Spending.admit() of a slice refuses what its own limit or its parent's remainder refuses", async () => {
  const parent = new Spending({ limits: { tokens: 3_000 } });
  const spent = new ScriptedModel([
    { text: "a", usage: { promptTokens: 1500, completionTokens: 0, cachedTokens: 0 } },
  ]);
  await parent.meter(spent, "step").complete(REQUEST);
  const roomy = new Spending({ limits: { tokens: 100_000 }, parent });
  assertEquals(roomy.admit(100, 1000), undefined);
  assertStringIncludes(roomy.admit(100, 2000) ?? "", "has spent 1500 of its 3000 tokens");
  const small = new Spending({ limits: { tokens: 500 }, parent });
  assertStringIncludes(small.admit(100, 1000) ?? "", "has spent 0 of its 500 tokens");
});

Deno.test("Spending.report() lists each child that asked, by its label, in the order they were made; a new session forgets them", async () => {
  const parent = new Spending();
  const pricing = { input: 3, output: 15 };
  const usage = { promptTokens: 1000, completionTokens: 100, cachedTokens: 0 };
  const first = new Spending({ parent, label: "explore · read a" });
  const refused = new Spending({ parent, label: "explore · never asked" });
  const second = new Spending({ parent, label: "lead · plan" });
  await second.meter(new ScriptedModel([{ text: "b", usage }]), "step").complete(REQUEST);
  await first.meter(new ScriptedModel([{ text: "a", usage }]), "step", pricing).complete(REQUEST);
  assertEquals(refused.report().session.requests, 0);
  const children = parent.report().children ?? [];
  assertEquals(children.map((child) => [child.label, child.tally.requests, child.cost]), [
    ["explore · read a", 1, 0.0045],
    ["lead · plan", 1, undefined],
  ]);
  parent.startSession();
  assertEquals(parent.report().children, undefined);
});
