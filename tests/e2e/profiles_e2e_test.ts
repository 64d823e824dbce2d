/**
 * End-to-end: several profiles in one provider file, through `deno task start` against two
 * fake servers with different windows and model names: `/model`, `--model`, `--continue`
 * on the last profile, compaction into a smaller window, `/effort`, broken profiles, and the
 * provider fields of one provider kept from the other.
 *
 * @module
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import {
  type FakeServer,
  type Handler,
  type RecordedRequest,
  startFakeServer,
} from "../support/fake_server.ts";
import { deepseekThinkingToolCall, geminiSignedToolCall } from "../support/provider_replies.ts";
import {
  type ProviderRule,
  refuseReasoningEffort,
  requireReasoningContent,
  requireThoughtSignatures,
} from "../support/provider_rules.ts";
import { createTempProject } from "../support/project.ts";
import {
  ENV,
  KEY,
  LITERAL_KEY_WARNING,
  provider,
  sessionIds,
  sessionLines,
} from "../support/sessions.ts";
import { answerSummaries, isSummaryRequest, sequence, text } from "../support/scripts.ts";
import { waitUntil } from "../support/processes.ts";
import { screenLines, startInTmux, waitForPrompt } from "../support/repl_pane.ts";
import { tmuxTest } from "../support/programs.ts";

type Fields = Record<string, unknown>;

/** A strict fake server serving only `model`, with its own window. */
function serve(
  model: string,
  contextWindow: number,
  handler: Handler,
  rules: readonly ProviderRule[] = [],
): Promise<FakeServer> {
  return startFakeServer({
    model,
    apiKey: KEY,
    contextWindow,
    rules,
    handler: answerSummaries(handler),
  });
}

/** provider.json with profiles `small` (the default) and `big` on the two servers. */
function twoProfiles(small: FakeServer, big: FakeServer, extra: Fields = {}) {
  return {
    default: "small",
    profiles: {
      small: provider(small.url, { model: "fake-small", contextWindow: 16000 }),
      big: provider(big.url, { model: "fake-big", contextWindow: 64000, ...extra }),
    },
  };
}

function tasks(server: FakeServer): RecordedRequest[] {
  return server.requests.filter((request) => !isSummaryRequest(request));
}

function lastText(request: RecordedRequest | undefined): unknown {
  return request?.body?.messages.at(-1)?.content;
}

Deno.test("/model big sends the next task to the second server with its model; --continue stays there; --model chooses at start; a literal key in a profile is warned about", async () => {
  await using small = await serve("fake-small", 16000, sequence([text("Small one."), text("4.")]));
  await using big = await serve("fake-big", 64000, sequence([text("Big two."), text("Big 3.")]));
  await using project = await createTempProject();
  // A literal key in any profile is warned about, as in a file of the single shape.
  await project.writeProvider(twoProfiles(small, big, { apiKey: KEY }));

  const first = await project.run([], { stdin: "one\n/model\n/model big\ntwo\n", env: ENV });
  assertEquals(first.code, 0, first.stderr);
  assertStringIncludes(
    first.stdout,
    [
      LITERAL_KEY_WARNING,
      "Small one.",
      "Profiles in provider.json (* current):",
      "* small  fake-small  16k window",
      "  big    fake-big    64k window",
      "Switch with /model NAME",
      'Switched to profile "big": fake-big, 64k window',
    ].join("\n"),
  );
  assertEquals(tasks(small).map(lastText), ["one"]);
  assertEquals(big.requests.map((request) => request.body?.model), ["fake-big"]);
  assertEquals(big.requests[0]?.body?.messages.slice(1), [
    { role: "user", content: "one" },
    { role: "assistant", content: "Small one." },
    { role: "user", content: "two" },
  ]);
  const [id] = await sessionIds(project.dir);
  const lines = await sessionLines(project.dir, id ?? "");
  assertEquals(lines.slice(1).map((line) => line.type), [
    "task_start",
    "message",
    "request",
    "message",
    "usage",
    "task_end",
    "model",
    "task_start",
    "message",
    "request",
    "message",
    "usage",
    "task_end",
  ]);
  assertEquals(lines[7], { type: "model", profile: "big" });

  const resumed = await project.run(["-c", "-p", "three"], { env: ENV });
  assertEquals([resumed.code, resumed.stdout], [0, "Big 3.\n"], resumed.stderr);
  assertEquals(tasks(big).map(lastText), ["two", "three"]);

  const chosen = await project.run(["-c", "--model", "small", "-p", "four"], { env: ENV });
  assertEquals([chosen.code, chosen.stdout], [0, "4.\n"], chosen.stderr);
  assertEquals(tasks(small).map(lastText), ["one", "four"]);
  assertEquals(small.requests[1]?.body?.model, "fake-small");
});

Deno.test("switching from a 64k to an 8k profile with ~20k tokens of history compacts first, and the next request fits 8k", async () => {
  const paragraph = (n: number) =>
    `Part ${n}. ` + "The quick brown fox jumps over the lazy dog near the river bank. ".repeat(150);
  await using big = await serve(
    "fake-big",
    64000,
    sequence(Array.from({ length: 10 }, (_, n) => text(paragraph(n)))),
  );
  await using small = await serve("fake-small", 8192, sequence([text("Fits.")]));
  await using project = await createTempProject();
  await project.writeProvider({
    default: "big",
    profiles: {
      big: provider(big.url, { model: "fake-big", contextWindow: 64000 }),
      small: provider(small.url, { model: "fake-small", contextWindow: 8192 }),
    },
  });
  const history = Array.from({ length: 10 }, (_, n) => `tell part ${n}\n`).join("");
  const result = await project.run([], {
    stdin: `${history}/model small\nwhat now?\n`,
    env: ENV,
  });
  assertEquals(result.code, 0, result.stderr);
  const before = big.requests.at(-1)?.promptTokens ?? 0;
  assert(before > 18_000, `history before the switch: ${before} tokens`);
  assertMatch(
    result.stdout,
    /Switched to profile "small": fake-small, 8\.2k window; the conversation \(about \d+(\.\d)?k tokens\) is compacted before the next request\n/,
  );
  assertMatch(result.stdout, /Context approaching limit \(approx \d+ \/ 8192 tokens\)/);
  assert(!result.stdout.includes("⚠"), "compaction, in rounds, makes it fit: nothing is cut");
  assertStringIncludes(result.stdout, "Fits.");
  const [task] = tasks(small);
  assertEquals([task?.status, lastText(task)], [200, "what now?"]);
  assert((task?.promptTokens ?? Infinity) < 8192, `the request after: ${task?.promptTokens}`);
  assert(small.requests.every((request) => request.status === 200));
  const [id] = await sessionIds(project.dir);
  const types = (await sessionLines(project.dir, id ?? "")).map((line) => line.type);
  assertEquals(types.slice(types.indexOf("model")).slice(0, 4), [
    "model",
    "task_start",
    "message",
    "compaction",
  ]);
});

Deno.test("reasoningEffort per profile and /effort LEVEL|off set reasoning_effort in the next requests", async () => {
  await using small = await serve("fake-small", 16000, sequence([]));
  await using big = await serve(
    "fake-big",
    64000,
    sequence([text("A."), text("B."), text("C."), text("D.")]),
  );
  await using project = await createTempProject();
  await project.writeProvider(twoProfiles(small, big, { reasoningEffort: "low" }));
  const result = await project.run(["--model", "big"], {
    stdin: "a\n/effort high\nb\n/effort\n/effort off\nc\n/effort max\n/model\nd\n",
    env: ENV,
  });
  assertEquals(result.code, 1, "a refused level is a failed command");
  assertEquals(
    big.requests.map((request) => (request.raw as Fields).reasoning_effort),
    ["low", "high", undefined, undefined],
  );
  assertStringIncludes(
    result.stdout,
    'Reasoning effort of profile "big": high from the next request',
  );
  assertStringIncludes(result.stdout, 'Reasoning effort of profile "big": high\n');
  assertStringIncludes(result.stdout, 'Reasoning effort of profile "big": off: none is sent');
  assertStringIncludes(
    result.stdout,
    '✗ Unknown effort "max": use minimal, low, medium, high or off\n',
  );
  assertStringIncludes(
    result.stdout,
    "  small  fake-small  16k window\n* big    fake-big    64k window\n",
  );
});

Deno.test("a provider that rejects reasoning_effort gets one line naming the field to unset", async () => {
  await using small = await serve(
    "fake-small",
    16000,
    sequence([text("Plain.")]),
    [refuseReasoningEffort()],
  );
  await using project = await createTempProject();
  await project.writeProvider({
    profiles: {
      small: provider(small.url, {
        model: "fake-small",
        contextWindow: 16000,
        reasoningEffort: "high",
      }),
    },
  });
  const result = await project.run([], { stdin: "hi\n/effort off\nhi again\n", env: ENV });
  assertEquals(result.code, 1);
  assertStringIncludes(
    result.stdout,
    "✗ The provider rejected the request (400): Unsupported parameter: 'reasoning_effort' is " +
      'not supported with this model; unset "reasoningEffort" of profile "small" in ' +
      '"provider.json", or type /effort off\n',
  );
  assertStringIncludes(result.stdout, "Plain.");
  assertEquals(small.requests.map((request) => request.status), [400, 200]);
});

Deno.test("a broken profile is named in one line at start (exit 2), and so is an unknown --model", async () => {
  await using project = await createTempProject();
  await project.writeProvider({
    default: "big",
    profiles: {
      small: provider("http://127.0.0.1:1/v1", { model: "fake-small" }),
      big: { baseURL: "http://127.0.0.1:1/v1", model: "fake-big", reasoningEffort: "max" },
    },
  });
  const broken = await project.run(["-p", "hi"], { env: ENV });
  assertEquals(
    [broken.code, broken.stdout, broken.stderr],
    [
      2,
      "",
      'powercode: Invalid provider file "provider.json": profile "big": field "contextWindow" ' +
      'is required; profile "big": field "reasoningEffort" must be one of "minimal", "low", ' +
      '"medium", "high", got "max"\n',
    ],
  );
  await project.writeProvider({
    profiles: { small: provider("http://127.0.0.1:1/v1", { model: "fake-small" }) },
  });
  const unknown = await project.run(["--model", "huge", "-p", "hi"], { env: ENV });
  assertEquals(
    [unknown.code, unknown.stderr],
    [2, 'powercode: Unknown --model "huge": the profiles of "provider.json" are "small"\n'],
  );
});

Deno.test("/model refuses a profile whose window cannot hold the system prompt and tools, and an unknown one; the session stays put", async () => {
  await using small = await serve("fake-small", 16000, sequence([text("Still small.")]));
  await using project = await createTempProject();
  await project.writeProvider({
    default: "small",
    profiles: {
      small: provider(small.url, { model: "fake-small", contextWindow: 16000 }),
      tiny: provider(small.url, { model: "fake-tiny", contextWindow: 800 }),
    },
  });
  const result = await project.run([], { stdin: "/model tiny\n/model nope\nhi\n", env: ENV });
  assertEquals(result.code, 1, "a refused switch is a failed command");
  assertMatch(
    result.stdout,
    /✗ Cannot switch to profile "tiny": field "contextWindow" \(800\) is too small: the system prompt and tool definitions take about \d+ tokens and reserveTokens is 200, which leaves no room for messages\n/,
  );
  assertStringIncludes(
    result.stdout,
    '✗ No profile "nope" in "provider.json": its profiles are "small", "tiny"\n',
  );
  assertEquals(small.requests.map((request) => request.body?.model), ["fake-small"]);
});

Deno.test("DeepSeek → Gemini → DeepSeek: each provider gets its own reasoning and signatures, never the other's", async () => {
  await using deepseek = await serve(
    "deepseek-v4-flash",
    64000,
    sequence([
      deepseekThinkingToolCall(),
      text("No weather tool here."),
      text("Back on DeepSeek."),
    ]),
    [requireReasoningContent()],
  );
  await using gemini = await serve(
    "gemini-3-pro-preview",
    64000,
    sequence([geminiSignedToolCall(), text("Read it.")]),
    [requireThoughtSignatures({ currentTurnOnly: true })],
  );
  await using project = await createTempProject();
  await Deno.writeTextFile(`${project.workspace}/notes.md`, "hello\n");
  await project.writeProvider({
    default: "deepseek",
    profiles: {
      deepseek: provider(deepseek.url, {
        model: "deepseek-v4-flash",
        contextWindow: 64000,
        // A DeepSeek route the URL does not name (api.deepseek.com is detected).
        compat: { reasoningOnToolCalls: true },
      }),
      gemini: provider(gemini.url, { model: "gemini-3-pro-preview", contextWindow: 64000 }),
    },
  });
  const result = await project.run([], {
    stdin: "weather in Lisbon?\n/model gemini\nread notes.md\n/model deepseek\nand now?\n",
    env: ENV,
  });
  assertEquals(result.code, 0, result.stdout + result.stderr);
  assertEquals(deepseek.requests.map((request) => request.status), [200, 200, 200]);
  assertEquals(gemini.requests.map((request) => request.status), [200, 200]);
  for (const request of gemini.requests) {
    assert(!JSON.stringify(request.raw).includes("reasoning_content"), "no reasoning to Gemini");
  }
  const turns = (request: RecordedRequest | undefined) =>
    ((request?.raw as Fields).messages as Fields[]).filter((message) => message.tool_calls);
  const [deepseekTurn, geminiTurn] = turns(gemini.requests[1]);
  assertEquals((deepseekTurn?.tool_calls as Fields[])[0]?.extra_content, undefined);
  assertStringIncludes(
    JSON.stringify((geminiTurn?.tool_calls as Fields[])[0]?.extra_content),
    "thought_signature",
  );
  const [ownTurn, foreignTurn] = turns(deepseek.requests[2]);
  assertStringIncludes(String(ownTurn?.reasoning_content), "weather in Lisbon");
  assertEquals(foreignTurn?.reasoning_content, "");
  assertEquals((foreignTurn?.tool_calls as Fields[])[0]?.extra_content, undefined);
  assertStringIncludes(result.stdout, "Back on DeepSeek.");
});

tmuxTest(
  "on a terminal the banner and the status line name the profile, and Tab completes profile names",
  async () => {
    const gate = Promise.withResolvers<void>();
    await using small = await serve("fake-small", 16000, sequence([]));
    await using big = await serve(
      "fake-big",
      64000,
      sequence([() => gate.promise.then(() => text("Big answer."))]),
    );
    await using project = await createTempProject();
    await project.writeProvider(twoProfiles(small, big));
    try {
      await using pane = await startInTmux(project, { columns: 100, rows: 30 });
      assertStringIncludes(await pane.screen(), "· small (fake-small) · /help for commands");
      await pane.type("/model b");
      await pane.keys("Tab");
      await pane.waitFor((s) => screenLines(s).at(-1) === "> /model big", "the completed name");
      await pane.keys("Enter");
      await pane.waitFor((s) => s.includes('Switched to profile "big"'), "the switch");
      await waitForPrompt(pane);
      await pane.type("hello");
      await pane.keys("Enter");
      await waitUntil(() => big.requests.length === 1, "the request to the big profile");
      await pane.waitFor((s) => s.includes("· big (fake-big)"), "the status line's profile");
      gate.resolve();
      await pane.waitFor((s) => s.includes("Big answer."), "the answer");
    } finally {
      gate.resolve();
    }
  },
);
