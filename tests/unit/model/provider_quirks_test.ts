/**
 * Every provider quirk the recorded corpus shows, each as a small fixture of our own (citing
 * where the fact comes from), so a clone without `../shared/provider-traffic/` still tests it:
 * served over HTTP by the fake server to the real client and stream reader.
 */
import { assertEquals, assertInstanceOf } from "@std/assert";
import { createChatClient } from "../../../src/model/client.ts";
import { ChatError, type ChatOptions, type ChatReply } from "../../../src/model/chat_model.ts";
import type { Message } from "../../../src/core/messages.ts";
import { type RawReply, type Reply, startFakeServer } from "../../support/fake_server.ts";
import {
  type ProviderRule,
  requireReasoningContent,
  requireThoughtSignatures,
} from "../../support/provider_rules.ts";
import { sequence, sseReply, text } from "../../support/scripts.ts";

type Fields = Record<string, unknown>;

async function ask(replies: Reply[], maxRetries = 0) {
  await using server = await startFakeServer({ handler: sequence(replies) });
  const seen: string[] = [];
  const options: ChatOptions = {
    onText: (piece) => seen.push(`text:${piece}`),
    onReasoning: (piece) => seen.push(`reasoning:${piece}`),
    onDiscard: () => seen.push("discard"),
    onRetry: ({ reason }) => seen.push(`retry:${reason}`),
  };
  const client = createChatClient({
    baseURL: server.url,
    apiKey: "k",
    model: "m",
    maxRetries,
    delay: () => Promise.resolve(),
  });
  const outcome = await client.complete(
    { system: "s", messages: [{ role: "user", content: "hi" }] },
    options,
  ).catch((error: unknown) => error);
  return { outcome, seen, statuses: server.requests.map((request) => request.status) };
}

async function answer(...replies: Reply[]): Promise<ChatReply> {
  const { outcome } = await ask(replies);
  if (outcome instanceof Error) throw outcome;
  return outcome as ChatReply;
}

async function failure(reply: Reply): Promise<ChatError> {
  const { outcome } = await ask([reply]);
  assertInstanceOf(outcome, ChatError);
  return outcome;
}

function choice(delta: Fields | undefined, finish?: string | null, extra: Fields = {}): Fields {
  return {
    index: 0,
    ...(delta ? { delta } : {}),
    ...(finish !== undefined ? { "finish_reason": finish } : {}),
    ...extra,
  };
}

function chunk(choices: Fields[], extra: Fields = {}): Fields {
  return { id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices, ...extra };
}

function json(status: number, body: unknown): RawReply {
  return { type: "raw", status, contentType: "application/json", parts: [JSON.stringify(body)] };
}

Deno.test("Azure: empty choices first, a choice without delta after the finish, annotations", async () => {
  // The shape of MicrosoftDocs/azure-ai-docs articles/ai-services/openai/concepts/
  // content-streaming.md ("Sample response stream (passes filters)"); our text.
  const filter = { "content_filter_results": { hate: { filtered: false, severity: "safe" } } };
  const reply = await answer(sseReply([
    {
      id: "",
      object: "",
      created: 0,
      model: "",
      choices: [],
      "prompt_filter_results": [{ "prompt_index": 0 }],
    },
    chunk([choice({ role: "assistant", content: "" }, null, filter)]),
    chunk([choice({ content: "Good" }, null, filter)]),
    chunk([choice({ content: " morning" }, null, filter)]),
    chunk([choice({}, "stop")]),
    chunk([
      choice(undefined, undefined, { ...filter, "content_filter_offsets": { "check_offset": 0 } }),
    ]),
  ]));
  assertEquals([reply.message.content, reply.finishReason], ["Good morning", "stop"]);
});

Deno.test("finish reasons length and content_filter reach the reply", async () => {
  // vercel/ai openai-text (cut at the limit) and azure-model-router (content filter).
  for (const finish of ["length", "content_filter"]) {
    const reply = await answer(sseReply([chunk([choice({ content: "Partly" }, finish)])]));
    assertEquals(reply.finishReason, finish);
  }
});

Deno.test("Mistral: typed thinking and text parts; empty choices mid-stream", async () => {
  // The part shapes of vercel/ai packages/mistral/src/__fixtures__/mistral-reasoning.chunks.txt
  // and mistral-empty-choices.chunks.txt; our text.
  const thinking = (text: string) => [{ type: "thinking", thinking: [{ type: "text", text }] }];
  const { outcome, seen } = await ask([sseReply([
    chunk([choice({ role: "assistant", content: thinking("Three and four make seven.") })]),
    chunk([]),
    chunk([choice({ content: [{ type: "text", text: "3 + 4 = 7" }] })]),
    chunk([choice({ content: "" }, "stop")]),
  ])]);
  assertEquals((outcome as ChatReply).message, {
    role: "assistant",
    content: "3 + 4 = 7",
    toolCalls: [],
    reasoning: "Three and four make seven.",
  });
  assertEquals(seen, ["reasoning:Three and four make seven.", "text:3 + 4 = 7"]);
});

Deno.test("reasoning: reasoning_content is kept for replay, Groq's reasoning is not", async () => {
  // deepseek-reasoner (vercel/ai deepseek-reasoning), xAI without finish_reason keys
  // (xai-text), Groq's `reasoning` field (groq-reasoning).
  const deepseek = await answer(sseReply([
    chunk([choice({ role: "assistant", content: null, "reasoning_content": "Think" })]),
    chunk([choice({ content: "Hi", "reasoning_content": null }, "stop")]),
  ]));
  assertEquals(
    [deepseek.message.reasoning, deepseek.message.replayReasoning, deepseek.message.content],
    ["Think", true, "Hi"],
  );
  const xai = await answer(sseReply([
    chunk([{ index: 0, delta: { "reasoning_content": "First" } }]),
    chunk([choice({ content: "Hello" }, "stop")]),
  ]));
  assertEquals([xai.message.reasoning, xai.message.content], ["First", "Hello"]);
  const groq = await answer(sseReply([
    chunk([choice({ reasoning: "Hmm" })]),
    chunk([choice({ content: "Ok" }, "stop")], { usage: { "total_tokens": 12 } }),
  ]));
  assertEquals([groq.message.reasoning, groq.message.replayReasoning, groq.totalTokens], [
    "Hmm",
    undefined,
    12,
  ]);
});

Deno.test("tool calls: split arguments, whole parallel calls, name-only first piece, empty ids", async () => {
  const calls = async (chunks: Fields[]) =>
    (await answer(sseReply(chunks))).message.toolCalls.map((
      { id, name, arguments: args },
    ) => [id, name, args]);
  const piece = (fields: Fields) => chunk([choice({ "tool_calls": [fields] })]);
  // OpenAI: arguments in pieces after a first piece with id and name (vercel/ai openai fixtures).
  assertEquals(
    await calls([
      piece({
        index: 0,
        id: "call_N",
        type: "function",
        function: { name: "weather", arguments: "" },
      }),
      piece({ index: 0, function: { arguments: "{}" } }),
      chunk([choice({}, "tool_calls")]),
    ]),
    [["call_N", "weather", "{}"]],
  );
  // Ollama: each call whole in one chunk, index 0 then 1 (g0t4/ask-openai.nvim sses.md).
  assertEquals(
    await calls([
      piece({
        id: "call_w",
        index: 0,
        type: "function",
        function: { name: "bash", arguments: '{"command":"ls"}' },
      }),
      piece({
        id: "call_r",
        index: 1,
        type: "function",
        function: { name: "bash", arguments: '{"command":"ls -l"}' },
      }),
      chunk([choice({}, "tool_calls")]),
    ]),
    [["call_w", "bash", '{"command":"ls"}'], ["call_r", "bash", '{"command":"ls -l"}']],
  );
  // vLLM: a name-only first piece (g0t4/ask-openai.nvim vllm-qwen.md); DashScope: continuation
  // pieces with `"id": ""` (vercel/ai alibaba-tool-call).
  assertEquals(
    await calls([
      piece({
        index: 0,
        id: "chatcmpl-tool-5d1e",
        type: "function",
        function: { name: "run_command" },
      }),
      piece({ index: 0, id: "", type: "function", function: { arguments: '{"command": ' } }),
      piece({ index: 0, id: "", type: "function", function: { arguments: '"ls"}' } }),
      chunk([choice({}, "tool_calls")]),
    ]),
    [["chatcmpl-tool-5d1e", "run_command", '{"command": "ls"}']],
  );
  // Mistral: no index, no type, the whole call in the finish chunk (vercel/ai mistral-tool-call);
  // our 9-character id.
  assertEquals(
    await calls([
      chunk([
        choice({
          "tool_calls": [{
            id: "Qx7pL2mZa",
            function: { name: "weather", arguments: '{"city": "Paris"}' },
          }],
        }, "tool_calls"),
      ], {
        usage: { "total_tokens": 9 },
      }),
    ]),
    [["Qx7pL2mZa", "weather", '{"city": "Paris"}']],
  );
});

Deno.test("Gemini: extra_content with the thought signature stays with its call", async () => {
  // https://ai.google.dev/gemini-api/docs/thought-signatures (OpenAI compatibility); our
  // signature and id.
  const reply = await answer(sseReply([
    chunk([choice({
      role: "assistant",
      "tool_calls": [{
        "extra_content": { google: { "thought_signature": "U2lnT3du" } },
        function: { arguments: '{"path":"todo.txt"}', name: "read_file" },
        id: "function-call-7",
        type: "function",
      }],
    }, "tool_calls")]),
  ]));
  assertEquals(reply.message.toolCalls[0]?.extra, {
    "extra_content": { google: { "thought_signature": "U2lnT3du" } },
  });
});

Deno.test("OpenRouter: comment lines are skipped; a mid-stream error is retried, its text discarded", async () => {
  // https://openrouter.ai/docs/api/reference/streaming (comments; "Handling errors during
  // streaming": HTTP 200, a top-level `error` with finish_reason "error").
  const comments: RawReply = {
    type: "raw",
    status: 200,
    contentType: "text/event-stream",
    parts: [
      ": OPENROUTER PROCESSING\n\n",
      `data: ${JSON.stringify(chunk([choice({ content: "Hello" }, "stop")]))}\n\n`,
      "data: [DONE]\n\n",
    ],
  };
  const broken = sseReply([
    chunk([choice({ content: "Half" })]),
    chunk([choice({ content: "" }, "error")], {
      error: { code: "server_error", message: "Provider disconnected unexpectedly" },
    }),
  ]);
  const { outcome, seen } = await ask([broken, comments], 1);
  assertEquals((outcome as ChatReply).message.content, "Hello");
  assertEquals(seen, [
    "text:Half",
    "discard",
    "retry:The provider failed mid-reply: Provider disconnected unexpectedly",
    "text:Hello",
  ]);
});

Deno.test("a mid-stream overflow (OpenRouter's object, LM Studio's string) is not retried", async () => {
  // OpenRouter streaming docs (as above) with its wording ("maximum context length is X tokens.
  // However, you requested about Y tokens", badlogic/pi-mono packages/ai/src/utils/overflow.ts); LM Studio's
  // `{"error": "<text>"}` (dyad-sh/dyad #925) in its wording (src/model/overflow.ts). Our numbers.
  const cases: [Reply, string][] = [
    [
      sseReply([chunk([choice({ content: "" }, "error")], {
        error: {
          code: 400,
          message:
            "This endpoint's maximum context length is 65536 tokens. However, you requested about 70210 tokens",
        },
      })]),
      "This endpoint's maximum context length is 65536 tokens. However, you requested about 70210 tokens",
    ],
    [
      sseReply([{
        error:
          "Trying to keep the first 6200 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens",
      }]),
      "Trying to keep the first 6200 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens",
    ],
  ];
  for (const [reply, message] of cases) {
    const { outcome, statuses } = await ask([reply, reply], 1);
    assertInstanceOf(outcome, ChatError);
    assertEquals([outcome.kind, outcome.message, statuses.length], [
      "context_overflow",
      `The request is too long for the model: ${message}`,
      1,
    ]);
  }
});

Deno.test("each provider's overflow body shape is a context overflow with its message", async (t) => {
  const cases: [string, RawReply, string][] = [
    // OpenAI's envelope and code (`context_length_exceeded`) with its older wording, the one
    // vLLM keeps (vllm-project/vllm vllm/entrypoints/openai/serving_engine.py); our numbers.
    [
      "OpenAI",
      json(400, {
        error: {
          message:
            "This model's maximum context length is 16385 tokens. However, your messages resulted in 17020 tokens.",
          type: "invalid_request_error",
          param: "messages",
          code: "context_length_exceeded",
        },
      }),
      "This model's maximum context length is 16385 tokens. However, your messages resulted in 17020 tokens",
    ],
    // Anthropic through OpenRouter: the message nested in metadata.raw (OpenRouter errors docs),
    // Anthropic's wording (badlogic/pi-mono packages/ai/src/utils/overflow.ts); our count.
    [
      "OpenRouter",
      json(400, {
        error: {
          message: "Provider returned error",
          code: 400,
          metadata: {
            raw:
              '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 204800 tokens > 200000 maximum"}}',
            "provider_name": "Anthropic",
          },
        },
      }),
      "Provider returned error: prompt is too long: 204800 tokens > 200000 maximum",
    ],
    // Groq's wording (badlogic/pi-mono packages/ai/src/utils/overflow.ts).
    [
      "Groq",
      json(400, {
        error: {
          message: "Please reduce the length of the messages or completion.",
          type: "invalid_request_error",
          param: "messages",
        },
      }),
      "Please reduce the length of the messages or completion",
    ],
    // xAI: `error` is a string (cline/cline #3120); wording from badlogic/pi-mono packages/ai/src/utils/overflow.ts,
    // our numbers.
    [
      "xAI",
      json(400, {
        code: "invalid argument",
        error:
          "This model's maximum prompt length is 256000 but the request contains 262000 tokens.",
      }),
      "This model's maximum prompt length is 256000 but the request contains 262000 tokens",
    ],
    // Gemini: the body is an array (google-gemini/gemini-cli #6678); wording from
    // badlogic/pi-mono packages/ai/src/utils/overflow.ts, our numbers.
    [
      "Gemini",
      json(400, [{
        error: {
          code: 400,
          message:
            "The input token count (2150000) exceeds the maximum number of tokens allowed (2097152).",
          status: "INVALID_ARGUMENT",
        },
      }]),
      "The input token count (2150000) exceeds the maximum number of tokens allowed (2097152)",
    ],
    // Mistral: top-level message (docs.mistral.ai known limitations); wording from
    // badlogic/pi-mono packages/ai/src/utils/overflow.ts, our numbers.
    [
      "Mistral",
      json(400, {
        object: "error",
        message:
          "Prompt contains 135168 tokens and 0 draft tokens, too large for model with 131072 maximum context length",
        type: "invalid_request_message_error",
        param: null,
        code: null,
      }),
      "Prompt contains 135168 tokens and 0 draft tokens, too large for model with 131072 maximum context length",
    ],
    // Kimi: wording from badlogic/pi-mono packages/ai/src/utils/overflow.ts ("Kimi For Coding"), our numbers.
    [
      "Kimi",
      json(400, {
        error: {
          message:
            "Invalid request: Your request exceeded model token limit: 131072 (requested: 140500)",
          type: "invalid_request_error",
        },
      }),
      "Invalid request: Your request exceeded model token limit: 131072 (requested: 140500)",
    ],
    // vLLM, older releases: top level; wording of vllm-project/vllm
    // vllm/entrypoints/openai/serving_engine.py (_validate_input), our numbers.
    [
      "vLLM",
      json(400, {
        object: "error",
        message:
          "This model's maximum context length is 32768 tokens. However, you requested 40960 tokens.",
        type: "BadRequestError",
        param: null,
        code: 400,
      }),
      "This model's maximum context length is 32768 tokens. However, you requested 40960 tokens",
    ],
    // llama.cpp: its error type (ggml-org/llama.cpp tools/server, exceed_context_size_error), an
    // older wording (oobabooga/textgen #7257), our numbers.
    [
      "llama.cpp",
      json(400, {
        error: {
          code: 400,
          message:
            "the request exceeds the available context size. try increasing the context size or enable context shift",
          type: "exceed_context_size_error",
          "n_prompt_tokens": 16800,
          "n_ctx": 16384,
        },
      }),
      "the request exceeds the available context size. try increasing the context size or enable context shift",
    ],
    // LM Studio: `error` is a string (dyad-sh/dyad #925).
    [
      "LM Studio",
      json(400, {
        error:
          "The number of tokens to keep from the initial prompt is greater than the context length.",
      }),
      "The number of tokens to keep from the initial prompt is greater than the context length",
    ],
    // Ollama: llm/llama_server.go wording in openai/openai.go's envelope (ollama/ollama).
    [
      "Ollama",
      json(400, {
        error: {
          message: "the prompt is longer than the context length currently available to the model",
          type: "api_error",
          param: null,
          code: null,
        },
      }),
      "the prompt is longer than the context length currently available to the model",
    ],
  ];
  for (const [provider, reply, message] of cases) {
    await t.step(provider, async () => {
      const error = await failure(reply);
      assertEquals([error.kind, error.message], [
        "context_overflow",
        `The request is too long for the model: ${message}`,
      ]);
    });
  }
});

Deno.test("errors that speak of tokens or quota but are no overflow keep their kind", async () => {
  // Groq's tokens-per-minute limit: its 429, code and wording as reported in
  // ITSpecialist111/ai_automation_suggester #61; our model and numbers.
  const tpm = await failure(
    json(429, {
      error: {
        message:
          "Request too large for model `llama-3.1-8b-instant` on tokens per minute (TPM): Limit 20000, Requested 26500, please reduce your message size and try again.",
        type: "tokens",
        code: "rate_limit_exceeded",
      },
    }),
  );
  assertEquals(tpm.kind, "rate_limited");
  // Gemini's 429 RESOURCE_EXHAUSTED in its array body, with the description of
  // https://ai.google.dev/gemini-api/docs/troubleshooting (error code table).
  const gemini = await failure(
    json(429, [{
      error: {
        code: 429,
        message: "You've exceeded the rate limit.",
        status: "RESOURCE_EXHAUSTED",
      },
    }]),
  );
  assertEquals([gemini.kind, gemini.message], [
    "rate_limited",
    "Rate limited (429): You've exceeded the rate limit",
  ]);
  // DeepSeek without the reasoning it requires (https://api-docs.deepseek.com/guides/thinking_mode;
  // wording as reported in AstrBotDevs/AstrBot #4174), our index.
  const deepseek = await failure(
    json(400, {
      error: {
        message: "Missing `reasoning_content` field in the assistant message at message index 4.",
        type: "invalid_request_error",
      },
    }),
  );
  assertEquals(deepseek.kind, "bad_request");
});

/** Asks once for `first`, then sends the history with its tool call answered. */
async function twoTurns(first: Reply, rules: ProviderRule[]) {
  await using server = await startFakeServer({ handler: sequence([first, text("done")]), rules });
  const client = createChatClient({ baseURL: server.url, apiKey: "k", model: "m", maxRetries: 0 });
  const start: Message = { role: "user", content: "go" };
  const { message } = await client.complete({ system: "s", messages: [start] });
  const results = message.toolCalls.map((call): Message => ({
    role: "tool",
    toolCallId: call.id,
    content: "ok",
    isError: false,
  }));
  await client.complete({ system: "s", messages: [start, message, ...results] });
  const sent = (server.requests[1]?.raw as Fields).messages as Fields[];
  return { status: server.requests[1]?.status, assistant: sent[2] };
}

Deno.test("DeepSeek and Gemini get back what their next request requires", async () => {
  // DeepSeek thinking mode: reasoning_content back on tool-call turns
  // (https://api-docs.deepseek.com/guides/thinking_mode); Gemini: the thought signature.
  const deepseek = await twoTurns(
    sseReply([
      chunk([choice({ role: "assistant", content: null, "reasoning_content": "Look it up." })]),
      chunk([
        choice({
          "tool_calls": [{
            index: 0,
            id: "call_0",
            type: "function",
            function: { name: "weather", arguments: "{}" },
          }],
        }, "tool_calls"),
      ]),
    ]),
    [requireReasoningContent()],
  );
  assertEquals([deepseek.status, deepseek.assistant?.reasoning_content], [200, "Look it up."]);
  const gemini = await twoTurns(
    sseReply([chunk([choice({
      "tool_calls": [{
        "extra_content": { google: { "thought_signature": "Sig" } },
        id: "f1",
        type: "function",
        function: { name: "read_file", arguments: "{}" },
      }],
    }, "tool_calls")])]),
    [requireThoughtSignatures()],
  );
  assertEquals([gemini.status, (gemini.assistant?.tool_calls as Fields[])[0]?.extra_content], [
    200,
    {
      google: { "thought_signature": "Sig" },
    },
  ]);
});

Deno.test("usage: cached and reasoning tokens in each provider's shape reach the reply", async () => {
  const usage = async (fields: Fields) =>
    (await answer(sseReply([chunk([choice({ content: "ok" }, "stop")], { usage: fields })])))
      .usage;
  // OpenAI's prompt_tokens_details.cached_tokens, as DeepSeek sends it on a cache hit (the shape
  // of vercel/ai deepseek-tool-call.chunks.txt), with its own prompt_cache_hit_tokens beside it;
  // our numbers.
  assertEquals(
    await usage({
      "prompt_tokens": 500,
      "completion_tokens": 40,
      "total_tokens": 540,
      "prompt_tokens_details": { "cached_tokens": 384 },
      "prompt_cache_hit_tokens": 384,
    }),
    { promptTokens: 500, completionTokens: 40, cachedTokens: 384 },
  );
  // xAI counts reasoning apart: total 600 = 300 prompt + 50 completion + 250 reasoning
  // (the shape of vercel/ai xai-tool-call.chunks.txt; our numbers).
  assertEquals(
    await usage({
      "prompt_tokens": 300,
      "completion_tokens": 50,
      "total_tokens": 600,
      "prompt_tokens_details": { "cached_tokens": 128 },
    }),
    { promptTokens: 300, completionTokens: 300, cachedTokens: 128 },
  );
});
