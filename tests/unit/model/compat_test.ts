import { assertEquals } from "@std/assert";
import {
  detectCompat,
  type ProviderCompat,
  readCompatOverrides,
  resolveCompat,
} from "../../../src/model/compat.ts";
import { alnum9ToolCallId } from "../../../src/model/tool_call_ids.ts";

const PLAIN: ProviderCompat = {
  outputLimitField: "max_tokens",
  cacheControl: false,
  replayReasoning: true,
  reasoningOnToolCalls: false,
  extraContent: true,
  toolCallIds: "any",
  reasoningEffortField: "reasoning_effort",
};

Deno.test("detectCompat() reads the endpoint's quirks from the base URL and the model name", () => {
  const cases: [string, string, Partial<ProviderCompat>][] = [
    ["https://api.openai.com/v1", "gpt-4.1", {}],
    ["https://api.openai.com/v1", "gpt-5-mini", { outputLimitField: "max_completion_tokens" }],
    ["https://api.openai.com/v1", "o3", { outputLimitField: "max_completion_tokens" }],
    ["https://openrouter.ai/api/v1", "openai/o4-mini", {
      outputLimitField: "max_completion_tokens",
      reasoningEffortField: "reasoning.effort",
    }],
    ["https://my.openai.azure.com/openai/v1", "my-deployment", {}],
    ["https://openrouter.ai/api/v1", "anthropic/claude-sonnet-4", {
      reasoningEffortField: "reasoning.effort",
    }],
    ["https://api.deepseek.com/v1", "deepseek-reasoner", { reasoningOnToolCalls: true }],
    ["https://api.moonshot.ai/v1", "kimi-k2-thinking", { reasoningOnToolCalls: true }],
    ["http://127.0.0.1:11434/v1", "deepseek-r1:14b", {}],
    ["https://generativelanguage.googleapis.com/v1beta/openai", "gemini-2.5-pro", {}],
    ["https://api.mistral.ai/v1", "my-fine-tune", { toolCallIds: "alnum9" }],
    ["https://openrouter.ai/api/v1", "mistralai/devstral-small", {
      toolCallIds: "alnum9",
      reasoningEffortField: "reasoning.effort",
    }],
    ["http://127.0.0.1:8000/v1", "Mistral-Small-3.2-24B-Instruct", { toolCallIds: "alnum9" }],
    ["http://127.0.0.1:11434/v1", "qwen2.5-coder:14b", {}],
    ["not a url", "m", {}],
  ];
  for (const [baseURL, model, quirks] of cases) {
    assertEquals(detectCompat(baseURL, model), { ...PLAIN, ...quirks }, `${baseURL} ${model}`);
  }
});

Deno.test("resolveCompat() replaces only the fields an override sets", () => {
  assertEquals(
    resolveCompat("https://api.openai.com/v1", "o3", { cacheControl: true }),
    { ...PLAIN, outputLimitField: "max_completion_tokens", cacheControl: true },
  );
  assertEquals(
    resolveCompat("https://api.mistral.ai/v1", "m", { toolCallIds: "any", extraContent: false }),
    { ...PLAIN, extraContent: false },
  );
});

Deno.test("readCompatOverrides() reads compat and the two top-level fields", () => {
  const problems: string[] = [];
  const overrides = readCompatOverrides({
    outputLimitField: "max_completion_tokens",
    compat: { cacheControl: true, replayReasoning: false, toolCallIds: "alnum9" },
  }, problems);
  assertEquals(problems, []);
  assertEquals(overrides, {
    outputLimitField: "max_completion_tokens",
    cacheControl: true,
    replayReasoning: false,
    toolCallIds: "alnum9",
  });
  assertEquals(readCompatOverrides({ baseURL: "x" }, problems), {});
  assertEquals(problems, []);
});

Deno.test("readCompatOverrides() names every bad field as written", () => {
  const problems: string[] = [];
  readCompatOverrides({
    cacheControl: "yes",
    outputLimitField: "max_output",
    compat: {
      outputLimitField: "max_tokens",
      maxTokensField: "max_tokens",
      extraContent: 1,
      toolCallIds: "mistral",
    },
  }, problems);
  assertEquals(problems, [
    'field "outputLimitField" must be "max_tokens" or "max_completion_tokens", got "max_output"',
    'field "cacheControl" must be true or false, got "yes"',
    'field "compat.outputLimitField" is also set as "outputLimitField"; keep one',
    'field "compat.maxTokensField" is unknown',
    'field "compat.extraContent" must be true or false, got 1',
    'field "compat.toolCallIds" must be "any" or "alnum9", got "mistral"',
  ]);
  const notObject: string[] = [];
  readCompatOverrides({ compat: ["cacheControl"] }, notObject);
  assertEquals(notObject, ['field "compat" must be an object, got ["cacheControl"]']);
});

Deno.test("alnum9ToolCallId() keeps 9 letters and digits, and maps other ids the same every time", () => {
  assertEquals(alnum9ToolCallId("tk85n1k4m"), "tk85n1k4m");
  const ids = ["call_1", "call_2", "toolu_01A09q90qw90lq917835lq9", ""].map(alnum9ToolCallId);
  for (const id of ids) assertEquals(/^[A-Za-z0-9]{9}$/.test(id), true, id);
  assertEquals(new Set(ids).size, 4);
  assertEquals(alnum9ToolCallId("call_1"), ids[0]);
});
