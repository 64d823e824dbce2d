/**
 * Replays every recorded response of `../shared/provider-traffic/fixtures/` (SOURCES.md says
 * where each comes from) through the fake server to the real client and stream reader: each
 * file gives the reply or the one-line error its entry below expects, and a file without an
 * entry at least a reply or an error that is classified, one line and never "Cannot reach".
 * Runs only where that directory exists.
 */
import { assert, assertEquals, assertInstanceOf, assertMatch } from "@std/assert";
import { createChatClient } from "../../../src/model/client.ts";
import { ChatError, type ChatErrorKind, type ChatReply } from "../../../src/model/chat_model.ts";
import { type RawReply, startFakeServer } from "../../support/fake_server.ts";
import { fixtureFiles, replayFixture, trafficTest } from "../../support/provider_fixtures.ts";

/** What a fixture must give: parts of the reply, or the kind and wording of the error. */
interface Expect {
  content?: string | RegExp;
  reasoning?: boolean;
  calls?: [string, string][];
  finish?: string;
  kind?: ChatErrorKind;
  message?: RegExp;
}

const OVERFLOW: Expect = {
  kind: "context_overflow",
  message: /^The request is too long for the model: /,
};
const SAN_FRANCISCO: [string, string][] = [["read_file", '{"path": "San Francisco"}']];

const EXPECTED: Record<string, Expect> = {
  "alibaba-qwen-tool-call.sse": { calls: SAN_FRANCISCO },
  "alibaba-text.sse": { content: /’/, finish: "stop" },
  "anthropic-compat-tool-index1.sse": {
    content: "Reading it.",
    calls: [["read_file", '{"path": "a.txt"}']],
  },
  "azure-async-filter.sse": { content: /\S/, finish: "stop" },
  "azure-model-router-text.sse": { content: /\S/, finish: "stop" },
  "copilot-claude-same-index.sse": {
    calls: [["read_file", '{"path":"a.txt"}'], ["read_file", '{"path":"b.txt"}']],
  },
  "copilot-plain-text.sse": { content: /\S/, finish: "stop" },
  "deepseek-length.sse": { content: /\S/, finish: "length" },
  "deepseek-reasoning-tool.sse": { reasoning: true, calls: SAN_FRANCISCO },
  "deepseek-reasoning.sse": { reasoning: true, content: /\S/ },
  "glm-incremental-tool-call.sse": { calls: SAN_FRANCISCO },
  "groq-reasoning.sse": { reasoning: true, content: /\S/ },
  "groq-text.sse": { content: /\S/, finish: "stop" },
  "groq-tool-call-empty-args.sse": { calls: [["weather", "{}"]] },
  "minimax-think-in-content.sse": {
    content: "Hi! How can I help you today?",
    reasoning: true,
    finish: "stop",
  },
  "mistral-magistral-content-parts.sse": { content: "2 + 2 = 4", reasoning: true },
  "mistral-text.sse": { content: /\S/, finish: "stop" },
  "mistral-tool-call-noindex.sse": { calls: SAN_FRANCISCO },
  "moonshot-kimi-reasoning.sse": { reasoning: true, content: /\S/ },
  "nim-repeated-tool-name.sse": { calls: SAN_FRANCISCO },
  "ollama-parallel-same-index.sse": {
    calls: [["bash", '{"command":"ls"}'], ["bash", '{"command":"ls -l"}']],
  },
  "ollama-parallel-tool-calls.sse": {
    calls: [["bash", '{"command":"ls"}'], ["bash", '{"command":"ls -l"}']],
  },
  "ollama-text-stop.sse": { content: /\S/, finish: "stop" },
  "openai-text.sse": { content: /\S/, finish: "stop" },
  "openrouter-midstream-error.sse": {
    kind: "server",
    message: /^The provider failed mid-reply: Provider disconnected unexpectedly$/,
  },
  "perplexity-citations.sse": { content: /\S/ },
  "qwen-reasoning-crlf.sse": { reasoning: true, content: /\S/ },
  "tgi-text-nospace.sse": { content: /\S/ },
  "xai-reasoning-tool.sse": { reasoning: true, calls: [["read_file", '{"path":"San Francisco"}']] },
  "xai-text.sse": { reasoning: true, content: "Hello" },
  "anthropic-overloaded-529.http": {
    kind: "server",
    message: /^The provider failed \(529\): Overloaded$/,
  },
  "cerebras-context-length-nobody.http": OVERFLOW,
  "copilot-context-length.http": OVERFLOW,
  "deepseek-missing-reasoning-content.http": { kind: "bad_request" },
  "gemini-context-length.http": OVERFLOW,
  "gemini-rate-limit.http": { kind: "rate_limited" },
  "groq-context-length.http": OVERFLOW,
  "llamacpp-context-size.http": OVERFLOW,
  "llamacpp-stream-error-context.http": OVERFLOW,
  "lmstudio-context-length.http": OVERFLOW,
  "minimax-invalid-key-200.http": {
    kind: "auth",
    message: /^The provider refused the API key \(MiniMax status 2049\): invalid api key;/,
  },
  "mistral-context-length.http": OVERFLOW,
  "nginx-502-html.http": {
    kind: "server",
    message: /^The provider failed \(502\): HTML page "502 Bad Gateway"$/,
  },
  "openai-context-length.http": OVERFLOW,
  "openai-insufficient-quota.http": {
    kind: "bad_request",
    message: /^The account has no quota left \(429 insufficient_quota\): /,
  },
  "openai-max-tokens-unsupported.http": {
    kind: "bad_request",
    message: /set "outputLimitField": "max_completion_tokens" in provider.json$/,
  },
  "openai-rate-limit.http": { kind: "rate_limited" },
  "tgi-context-length.http": OVERFLOW,
  "vllm-context-length-legacy.http": OVERFLOW,
  "vllm-context-length.http": OVERFLOW,
  "xai-context-length.http": OVERFLOW,
};

/**
 * SOURCES.md: alibaba-text.sse is served cut inside each multi-byte character, between `data`
 * and `:`, and between the two newlines of every event.
 */
function cutAwkwardly(reply: RawReply): RawReply {
  const bytes = new TextEncoder().encode(reply.parts.join(""));
  const cuts: number[] = [];
  for (let i = 1; i < bytes.length; i++) {
    const continuation = ((bytes[i] ?? 0) & 0xc0) === 0x80;
    const colon = bytes[i] === 0x3a && bytes[i - 1] === 0x61; // "data" | ":"
    const blank = bytes[i] === 0x0a && bytes[i - 1] === 0x0a;
    if (continuation || colon || blank) cuts.push(i);
  }
  const parts = [0, ...cuts].map((start, k) => bytes.slice(start, cuts[k] ?? bytes.length));
  return { ...reply, parts, chunkDelayMs: 2 };
}

async function outcomeOf(name: string): Promise<unknown> {
  let reply = await replayFixture(name);
  if (name === "alibaba-text.sse") reply = cutAwkwardly(reply);
  await using server = await startFakeServer({ handler: () => reply });
  const client = createChatClient({ baseURL: server.url, apiKey: "k", model: "m", maxRetries: 0 });
  return await client.complete({ system: "s", messages: [{ role: "user", content: "hi" }] })
    .catch((error: unknown) => error);
}

function check(name: string, outcome: unknown, expect: Expect | undefined): void {
  if (outcome instanceof ChatError) {
    assert(expect === undefined || expect.kind !== undefined, `${name}: ${outcome.message}`);
    assert(outcome.kind !== "unreachable", `${name}: ${outcome.message}`);
    assert(!outcome.message.includes("\n") && outcome.message.length < 1200, name);
    if (expect?.kind) assertEquals(outcome.kind, expect.kind, `${name}: ${outcome.message}`);
    if (expect?.message) assertMatch(outcome.message, expect.message, name);
    return;
  }
  if (outcome instanceof Error) throw outcome;
  const { message, finishReason } = outcome as ChatReply;
  assert(expect?.kind === undefined, `${name}: expected a ${expect?.kind} error`);
  const { content, reasoning, calls, finish } = expect ?? {};
  if (typeof content === "string") assertEquals(message.content, content, name);
  if (content instanceof RegExp) assertMatch(message.content, content, name);
  if (reasoning !== undefined) assertEquals((message.reasoning ?? "") !== "", reasoning, name);
  if (calls) {
    assertEquals(message.toolCalls.map((call) => [call.name, call.arguments]), calls, name);
  }
  if (finish) assertEquals(finishReason, finish, name);
}

trafficTest(
  "every recorded response in fixtures/ gives its reply or its one-line error",
  async (t) => {
    for (const name of fixtureFiles()) {
      await t.step(name, async () => check(name, await outcomeOf(name), EXPECTED[name]));
    }
  },
);

trafficTest("MiniMax's recorded <think> block goes back exactly as it came", async () => {
  const reply = await replayFixture("minimax-think-in-content.sse");
  const outcome = await outcomeOf("minimax-think-in-content.sse");
  assertInstanceOf(outcome, Object);
  const { message } = outcome as ChatReply;
  const streamed = reply.parts.join("").split("\n").filter((line) => line.startsWith("data: {"))
    .map((line) => JSON.parse(line.slice(6)).choices[0].delta.content).join("");
  assertEquals((message.thinkBlock ?? "") + message.content, streamed);
});
