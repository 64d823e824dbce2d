import { assertEquals, assertRejects } from "@std/assert";
import { ChatError } from "../../../src/model/chat_model.ts";
import type { AssistantMessage, Message } from "../../../src/core/messages.ts";
import { resolveCompat } from "../../../src/model/compat.ts";
import { profileModel } from "../../../src/model/profile_model.ts";
import type { ReasoningEffort } from "../../../src/model/reasoning_effort.ts";
import { toWireRequest } from "../../../src/model/wire.ts";
import { ScriptedModel } from "../../support/scripted_model.ts";

const CALL = { id: "c1", name: "read_file", arguments: '{"path":"a"}' };
const SIGNED = { ...CALL, extra: { extra_content: { google: { thought_signature: "sig" } } } };
const URL = "http://127.0.0.1:1/v1";

function wrap(inner: ScriptedModel, effort: () => ReasoningEffort | undefined) {
  return profileModel(inner, {
    model: "m1",
    effort,
    effortField: "reasoning_effort",
    effortRejected: (detail) => `${detail}; unset "reasoningEffort"`,
  });
}

Deno.test("profileModel() sends the effort set at each request, none when off", async () => {
  const inner = new ScriptedModel(["a", "b"]);
  let effort: ReasoningEffort | undefined = "high";
  const model = wrap(inner, () => effort);
  await model.complete({ system: "s", messages: [] });
  effort = undefined;
  await model.complete({ system: "s", messages: [] });
  assertEquals(inner.requests.map((request) => request.reasoningEffort), ["high", undefined]);
});

Deno.test("profileModel() marks replies that carry provider fields with the model that wrote them", async () => {
  const inner = new ScriptedModel(["plain", { toolCalls: [SIGNED] }]);
  const model = wrap(inner, () => undefined);
  const plain = await model.complete({ system: "s", messages: [] });
  const signed = await model.complete({ system: "s", messages: [] });
  assertEquals(plain.message.model, undefined);
  assertEquals(signed.message.model, "m1");
});

Deno.test("profileModel() turns a refused effort parameter into the line naming the field to unset", async () => {
  const refusal = () =>
    new ChatError(
      "bad_request",
      "The provider rejected the request (400): Unsupported parameter: 'reasoning_effort'",
    );
  const rejected = wrap(new ScriptedModel([refusal()]), () => "low");
  const error = await assertRejects(
    () => rejected.complete({ system: "s", messages: [] }),
    ChatError,
  );
  assertEquals(
    [error.kind, error.message],
    [
      "bad_request",
      "The provider rejected the request (400): Unsupported parameter: 'reasoning_effort'; " +
      'unset "reasoningEffort"',
    ],
  );
  const unsent = wrap(new ScriptedModel([refusal()]), () => undefined);
  const untouched = await assertRejects(() => unsent.complete({ system: "s", messages: [] }));
  assertEquals(
    (untouched as Error).message,
    "The provider rejected the request (400): Unsupported parameter: 'reasoning_effort'",
    "without an effort sent, the provider's line stands",
  );
});

Deno.test("toWireRequest() puts the effort where the profile says", () => {
  const request = { system: "s", messages: [], reasoningEffort: "medium" as const };
  const plain: Record<string, unknown> = toWireRequest("m", request, resolveCompat(URL, "m"));
  const routed: Record<string, unknown> = toWireRequest(
    "m",
    request,
    resolveCompat("https://openrouter.ai/api/v1", "m"),
  );
  assertEquals([plain.reasoning_effort, plain.reasoning], ["medium", undefined]);
  assertEquals([routed.reasoning_effort, routed.reasoning], [undefined, { effort: "medium" }]);
  assertEquals(
    "reasoning_effort" in
      toWireRequest("m", { system: "s", messages: [] }, resolveCompat(URL, "m")),
    false,
  );
});

Deno.test("toWireRequest() sends reasoning and extra back only to the model that wrote them", () => {
  const reasoned = (model?: string): AssistantMessage => ({
    role: "assistant",
    content: "",
    toolCalls: [SIGNED],
    reasoning: "thinking",
    replayReasoning: true,
    ...(model ? { model } : {}),
  });
  const turn = (message: AssistantMessage, target: string, compat = {}) => {
    const messages: Message[] = [
      { role: "user", content: "go" },
      message,
      { role: "tool", toolCallId: "c1", content: "ok", isError: false },
    ];
    const body = toWireRequest(
      target,
      { system: "s", messages },
      resolveCompat(URL, target, compat),
    );
    return body.messages[2];
  };
  const wireCall = {
    id: "c1",
    type: "function" as const,
    function: { name: "read_file", arguments: '{"path":"a"}' },
  };
  const signedCall = { ...wireCall, "extra_content": { google: { "thought_signature": "sig" } } };
  assertEquals(turn(reasoned("m1"), "m1"), {
    role: "assistant",
    content: null,
    reasoning_content: "thinking",
    tool_calls: [signedCall],
  });
  assertEquals(turn(reasoned(), "m2"), turn(reasoned("m2"), "m2"), "unmarked: as its own");
  assertEquals(turn(reasoned("m1"), "m2"), {
    role: "assistant",
    content: null,
    tool_calls: [wireCall],
  });
  assertEquals(
    turn(reasoned("m1"), "m2", { reasoningOnToolCalls: true }),
    { role: "assistant", content: null, reasoning_content: "", tool_calls: [wireCall] },
    "an empty reasoning_content where the profile wants one on every tool-call turn",
  );
});
