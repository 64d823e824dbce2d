import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStringIncludes,
} from "@std/assert";
import OpenAI from "openai";
import { type FakeServerOptions, startFakeServer } from "../../support/fake_server.ts";
import {
  answerSummaries,
  drop,
  failTimes,
  hang,
  isSummaryRequest,
  rateLimited,
  sequence,
  summarizeFacts,
  text,
  toolCall,
  toolCalls,
} from "../../support/scripts.ts";
import { countPromptTokens, countTextTokens } from "../../support/tokens.ts";

type Params = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

const MODEL = "fake-model";
const KEY = "sk-test-key";
const READ_FILE: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: "function",
  function: {
    name: "read_file",
    description: "Read a file",
    parameters: { type: "object", properties: { path: { type: "string" } } },
  },
};

function serve(options: Partial<FakeServerOptions> & Pick<FakeServerOptions, "handler">) {
  return startFakeServer({ model: MODEL, apiKey: KEY, ...options });
}

function client(url: string, apiKey = KEY): OpenAI {
  return new OpenAI({ baseURL: url, apiKey, maxRetries: 0 });
}

async function collect(stream: AsyncIterable<Chunk>): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

/** Sends a raw body with fetch, for shapes the SDK's types would not allow. */
async function postRaw(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

const toolTurn: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
  { role: "user", content: "read a and b" },
  {
    role: "assistant",
    content: null,
    tool_calls: [
      {
        id: "call_a",
        type: "function",
        function: { name: "read_file", arguments: '{"path":"a"}' },
      },
      {
        id: "call_b",
        type: "function",
        function: { name: "read_file", arguments: '{"path":"b"}' },
      },
    ],
  },
];

Deno.test("startFakeServer() streams text in pieces with real usage and [DONE]", async () => {
  await using server = await serve({ handler: sequence([text("Hello there, streaming world!")]) });
  const messages = [{ role: "user" as const, content: "hi" }];
  const stream = await client(server.url).chat.completions.create({
    model: MODEL,
    messages,
    stream: true,
    stream_options: { include_usage: true },
  });
  const chunks = await collect(stream);
  const content = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
  assertEquals(content, "Hello there, streaming world!");
  assert(chunks.length > 5, `expected several chunks, got ${chunks.length}`);
  assertEquals(chunks[0]?.choices[0]?.delta.role, "assistant");
  assertEquals(chunks.at(-2)?.choices[0]?.finish_reason, "stop");
  const prompt = countPromptTokens({ messages });
  const completion = countTextTokens("Hello there, streaming world!");
  assertEquals(chunks.at(-1)?.choices, []);
  assertEquals(chunks.at(-1)?.usage, {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  });
  assertEquals(server.requests[0]?.promptTokens, prompt);
  assertEquals(server.requests[0]?.headers.authorization, `Bearer ${KEY}`);
});

Deno.test("startFakeServer() with promptCache reports the prefix shared with an earlier request as cached", async () => {
  await using server = await serve({
    handler: sequence([text("one"), text("two"), text("three")]),
    promptCache: true,
  });
  const first = [{ role: "user" as const, content: "read the notes" }];
  const ask = (messages: Params["messages"]) =>
    client(server.url).chat.completions.create({ model: MODEL, messages, tools: [READ_FILE] });
  const cached = (reply: OpenAI.Chat.Completions.ChatCompletion) =>
    reply.usage?.prompt_tokens_details?.cached_tokens;
  assertEquals(cached(await ask(first)), 0);
  const second = [...first, { role: "assistant" as const, content: "one" }, {
    role: "user" as const,
    content: "and again",
  }];
  const reply = await ask(second);
  const tools = countPromptTokens({ messages: [], tools: [READ_FILE] });
  assertEquals(cached(reply), tools + countPromptTokens({ messages: first }));
  assertEquals(reply.usage?.prompt_tokens, tools + countPromptTokens({ messages: second }));
  // A changed first message shares only the tools.
  assertEquals(cached(await ask([{ role: "user", content: "other" }])), tools);
});

Deno.test("startFakeServer() answers non-streaming requests, with usage unless disabled", async () => {
  await using server = await serve({ handler: sequence([text("one"), text("two")]) });
  const messages = [{ role: "user" as const, content: "hi" }];
  const params: Params = { model: MODEL, messages };
  const first = await client(server.url).chat.completions.create(params);
  assertEquals(first.choices[0]?.message.content, "one");
  assertEquals(first.choices[0]?.finish_reason, "stop");
  assertEquals(first.usage?.total_tokens, countPromptTokens({ messages }) + countTextTokens("one"));

  await using silent = await serve({ handler: sequence([text("two")]), sendUsage: false });
  const second = await client(silent.url).chat.completions.create(params);
  assertEquals(second.usage, undefined);
  const stream = await client(silent.url).chat.completions.create({
    ...params,
    stream: true,
    stream_options: { include_usage: true },
  }).catch((error: unknown) => error);
  assertInstanceOf(stream, OpenAI.InternalServerError);
  assertStringIncludes(stream.message, "script exhausted: request 2");
});

Deno.test("startFakeServer() streams tool calls that the SDK reassembles", async () => {
  const reply = toolCalls([
    { name: "read_file", args: { path: "src/a_long_file_name.ts" } },
    { name: "bash", args: { command: "ls -la" }, id: "call_custom" },
  ], { content: "Let me look." });
  await using server = await serve({ handler: sequence([reply]) });
  const stream = await client(server.url).chat.completions.create({
    model: MODEL,
    messages: [{ role: "user", content: "look" }],
    tools: [READ_FILE],
    stream: true,
  });
  const calls: { id: string; name: string; args: string }[] = [];
  let content = "";
  let finish: string | null | undefined;
  let argumentPieces = 0;
  for await (const chunk of stream) {
    const choice = chunk.choices[0];
    content += choice?.delta.content ?? "";
    finish = choice?.finish_reason ?? finish;
    for (const delta of choice?.delta.tool_calls ?? []) {
      calls[delta.index] ??= { id: "", name: "", args: "" };
      const call = calls[delta.index]!;
      call.id += delta.id ?? "";
      call.name += delta.function?.name ?? "";
      if (delta.function?.arguments) argumentPieces++;
      call.args += delta.function?.arguments ?? "";
    }
    assertEquals(chunk.usage, undefined);
  }
  assertEquals(content, "Let me look.");
  assertEquals(finish, "tool_calls");
  assertEquals(calls, [
    { id: "call_1", name: "read_file", args: '{"path":"src/a_long_file_name.ts"}' },
    { id: "call_custom", name: "bash", args: '{"command":"ls -la"}' },
  ]);
  assert(argumentPieces >= 4, `arguments should arrive in pieces, got ${argumentPieces}`);
});

Deno.test("startFakeServer() rejects an empty tools array like the real API", async () => {
  await using server = await serve({ handler: sequence([text("never")]) });
  const error = await assertRejects(
    () =>
      client(server.url).chat.completions.create({
        model: MODEL,
        messages: [{ role: "user", content: "hi" }],
        tools: [],
      }),
    OpenAI.BadRequestError,
  );
  assertEquals(error.error, {
    message: "[] is too short - 'tools'",
    type: "invalid_request_error",
    param: "tools",
    code: null,
  });
  assertEquals(server.requests[0]?.status, 400);
  assertEquals(server.requests[0]?.rejection, "[] is too short - 'tools'");
});

Deno.test("startFakeServer() rejects unanswered tool calls, at the end or before a user message", async () => {
  await using server = await serve({ handler: sequence([]) });
  const answerOne = { role: "tool" as const, "tool_call_id": "call_b", content: "B" };
  for (
    const messages of [
      [...toolTurn, answerOne],
      [...toolTurn, answerOne, { role: "user" as const, content: "go on" }],
    ]
  ) {
    const error = await assertRejects(
      () => client(server.url).chat.completions.create({ model: MODEL, messages }),
      OpenAI.BadRequestError,
    );
    assertEquals(
      error.message,
      "400 An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_a",
    );
  }
  assertEquals(server.requests.map((request) => request.status), [400, 400]);
});

Deno.test("startFakeServer() accepts tool results in any order and rejects stray ones", async () => {
  await using server = await serve({ handler: sequence([text("ok")]) });
  const answered = [
    ...toolTurn,
    { role: "tool" as const, tool_call_id: "call_b", content: "B" },
    { role: "tool" as const, tool_call_id: "call_a", content: "A" },
  ];
  const ok = await client(server.url).chat.completions.create({ model: MODEL, messages: answered });
  assertEquals(ok.choices[0]?.message.content, "ok");
  const stray = [...answered, { role: "tool" as const, tool_call_id: "call_a", content: "again" }];
  const error = await assertRejects(
    () => client(server.url).chat.completions.create({ model: MODEL, messages: stray }),
    OpenAI.BadRequestError,
  );
  assertEquals(error.param, "messages.[4].role");
  assertStringIncludes(
    error.message,
    "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'",
  );
});

Deno.test("startFakeServer() rejects malformed bodies with OpenAI-style errors", async () => {
  await using server = await serve({ handler: sequence([]) });
  const user = { role: "user", content: "hi" };
  const cases: [unknown, string][] = [
    [{ model: MODEL, messages: [] }, "Invalid 'messages': empty array."],
    [{ model: MODEL, messages: [{ role: "bot", content: "x" }] }, "Invalid value: 'bot'."],
    [{ model: MODEL, messages: [{ role: "user", content: 3 }] }, "'messages[0].content': expected"],
    [
      { model: MODEL, messages: [user], stream_options: { include_usage: true } },
      "'stream_options'",
    ],
    [{ model: MODEL, messages: [user], tool_choice: "auto" }, "'tool_choice' is only allowed"],
    [{ model: MODEL, messages: [user], tools: [{ type: "function" }] }, "'tools[0].function'"],
    [
      { model: MODEL, messages: [user], tools: [{ type: "function", function: { name: "a b" } }] },
      "does not match pattern",
    ],
    [
      {
        model: MODEL,
        messages: [user, { role: "assistant", content: null, tool_calls: [{ id: "c1" }] }],
      },
      "'messages[1].tool_calls[0].type'",
    ],
    [
      { model: MODEL, messages: [user, { role: "assistant", content: null, tool_calls: [] }] },
      "[] is too short - 'messages[1].tool_calls'",
    ],
    [{ model: MODEL, messages: [user], max_tokens: 0 }, "integer below minimum value"],
  ];
  for (const [body, expected] of cases) {
    const { status, json } = await postRaw(server.url, body);
    assertEquals(status, 400, JSON.stringify(body));
    assertStringIncludes(JSON.stringify(json), JSON.stringify(expected).slice(1, -1));
  }
  assertEquals(server.requests.length, cases.length);
  assert(server.requests.every((request) => request.rejection !== undefined));
});

Deno.test("startFakeServer() answers 404 model_not_found and 401 invalid_api_key", async () => {
  await using server = await serve({ handler: sequence([]) });
  const messages = [{ role: "user" as const, content: "hi" }];
  const notFound = await assertRejects(
    () => client(server.url).chat.completions.create({ model: "gpt-x", messages }),
    OpenAI.NotFoundError,
  );
  assertEquals(notFound.code, "model_not_found");
  assertEquals(
    notFound.message,
    "404 The model `gpt-x` does not exist or you do not have access to it.",
  );
  const unauthorized = await assertRejects(
    () =>
      client(server.url, "sk-wrong-key-1234").chat.completions.create({ model: MODEL, messages }),
    OpenAI.AuthenticationError,
  );
  assertEquals(unauthorized.code, "invalid_api_key");
  assertStringIncludes(unauthorized.message, "Incorrect API key provided: sk-*****1234.");
  assertEquals(server.requests.map((request) => request.status), [404, 401]);
});

Deno.test("startFakeServer() computes context_length_exceeded from real token counts", async () => {
  const messages = [{ role: "user" as const, content: "word ".repeat(300) }];
  const tokens = countPromptTokens({ messages, tools: [READ_FILE] });
  await using server = await serve({
    handler: sequence([text("fits")]),
    contextWindow: tokens + 10,
  });
  const fits = await client(server.url).chat.completions.create({
    model: MODEL,
    messages,
    tools: [READ_FILE],
    max_tokens: 10,
  });
  assertEquals(fits.usage?.prompt_tokens, tokens);
  const error = await assertRejects(
    () =>
      client(server.url).chat.completions.create({
        model: MODEL,
        messages,
        tools: [READ_FILE],
        max_tokens: 11,
      }),
    OpenAI.BadRequestError,
  );
  assertEquals(error.code, "context_length_exceeded");
  assertEquals(
    error.message,
    `400 This model's maximum context length is ${tokens + 10} tokens. However, you requested ${
      tokens + 11
    } tokens (${tokens} in the messages, 11 in the completion). Please reduce the length of the messages or completion.`,
  );
  const messagesOnly = countPromptTokens({ messages });
  await using tiny = await serve({ handler: sequence([]), contextWindow: messagesOnly - 1 });
  const overflow = await assertRejects(
    () => client(tiny.url).chat.completions.create({ model: MODEL, messages }),
    OpenAI.BadRequestError,
  );
  assertEquals(
    overflow.message,
    `400 This model's maximum context length is ${
      messagesOnly - 1
    } tokens. However, your messages resulted in ${messagesOnly} tokens. Please reduce the length of the messages.`,
  );
});

Deno.test("startFakeServer() sends 429 with a retry-after header the client can read", async () => {
  await using server = await serve({
    handler: failTimes(1, rateLimited(7), sequence([text("ok")])),
  });
  const params: Params = { model: MODEL, messages: [{ role: "user", content: "hi" }] };
  const error = await assertRejects(
    () => client(server.url).chat.completions.create(params),
    OpenAI.RateLimitError,
  );
  assertEquals(error.headers.get("retry-after"), "7");
  assertEquals(error.code, "rate_limit_exceeded");
  const ok = await client(server.url).chat.completions.create(params);
  assertEquals(ok.choices[0]?.message.content, "ok");
  assertEquals(server.requests.map((request) => request.status), [429, 200]);
});

Deno.test("startFakeServer() drops a stream mid-way and the SDK sees an error", async () => {
  await using server = await serve({
    handler: sequence([drop(text("partial answer that never finishes"), 3), drop(text("x"), 0)]),
  });
  const stream = await client(server.url).chat.completions.create({
    model: MODEL,
    messages: [{ role: "user", content: "hi" }],
    stream: true,
  });
  const received: Chunk[] = [];
  const error = await assertRejects(async () => {
    for await (const chunk of stream) received.push(chunk);
  });
  assertInstanceOf(error, TypeError);
  assertEquals(error.message, "error reading a body from connection");
  assertEquals(received.length, 3);
  assert(received.every((chunk) => chunk.choices[0]?.finish_reason === null));
  await assertRejects(() =>
    client(server.url).chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "again" }],
    })
  );
  assertEquals(server.requests.map((request) => request.status), [200, 200]);
});

Deno.test("startFakeServer() streams slowly so a client can interrupt mid-stream", async () => {
  await using server = await serve({
    handler: sequence([text("one two three four five six seven", { chunkDelayMs: 50 })]),
  });
  const controller = new AbortController();
  const stream = await client(server.url).chat.completions.create(
    { model: MODEL, messages: [{ role: "user", content: "hi" }], stream: true },
    { signal: controller.signal },
  );
  let pieces = 0;
  for await (const chunk of stream) {
    if (chunk.choices[0]?.delta.content) pieces++;
    if (pieces === 2) controller.abort();
  }
  assert(controller.signal.aborted);
  assertEquals(pieces, 2);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assertEquals(server.requests[0]?.clientAborted, true);
});

Deno.test("startFakeServer() hangs until the client gives up or the server closes", async () => {
  await using server = await serve({ handler: sequence([hang(), hang()]) });
  const controller = new AbortController();
  const pending = client(server.url).chat.completions.create(
    { model: MODEL, messages: [{ role: "user", content: "hi" }] },
    { signal: controller.signal },
  );
  setTimeout(() => controller.abort(), 30);
  await assertRejects(() => pending, OpenAI.APIUserAbortError);
  const late = client(server.url).chat.completions.create({
    model: MODEL,
    messages: [{ role: "user", content: "hi" }],
  });
  await new Promise((resolve) => setTimeout(resolve, 30));
  await Promise.all([server.close(), assertRejects(() => late, OpenAI.APIError)]);
  assertEquals(server.requests.length, 2);
});

Deno.test("startFakeServer() delays replies by delayMs", async () => {
  await using server = await serve({ handler: sequence([text("late", { delayMs: 80 })]) });
  const started = performance.now();
  await client(server.url).chat.completions.create({
    model: MODEL,
    messages: [{ role: "user", content: "hi" }],
  });
  assert(performance.now() - started >= 75);
});

Deno.test("answerSummaries() answers summary requests with every FACT token", async () => {
  await using server = await serve({
    handler: answerSummaries(sequence([toolCall("read_file", { path: "FACT-3.txt" })])),
  });
  const openai = client(server.url);
  const work = await openai.chat.completions.create({
    model: MODEL,
    messages: [{ role: "user", content: "Please write a summary of FACT-1" }],
    tools: [READ_FILE],
  });
  assertEquals(work.choices[0]?.message.tool_calls?.[0]?.type, "function");
  const summary = await openai.chat.completions.create({
    model: MODEL,
    messages: [
      { role: "system", content: "Summarize. Do not continue the conversation." },
      { role: "user", content: "[User]: FACT-1 and FACT-22\n[Tool result]: FACT-1, FACT-305" },
    ],
  });
  const content = summary.choices[0]?.message.content ?? "";
  assertStringIncludes(content, "Facts carried forward: FACT-1, FACT-22, FACT-305");
  assertStringIncludes(content, "## Next Steps");
  const [first, second] = server.requests;
  assert(first !== undefined && second !== undefined);
  assertEquals(isSummaryRequest(first), false);
  assertEquals(isSummaryRequest(second), true);
  assertEquals(summarizeFacts(second), content);
});

Deno.test("startFakeServer() records every request in order, including models.list()", async () => {
  await using server = await serve({ handler: sequence([text("a")]) });
  const openai = client(server.url);
  const models = await openai.models.list();
  assertEquals(models.data.map((model) => model.id), [MODEL]);
  await openai.chat.completions.create({
    model: MODEL,
    messages: [{ role: "user", content: "x" }],
  });
  await openai.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "y" }] })
    .catch(() => {});
  const summary = server.requests.map(({ method, path, status, rejection }) => ({
    method,
    path,
    status,
    rejection: rejection?.slice(0, 39),
  }));
  assertEquals(summary, [
    { method: "GET", path: "/v1/models", status: 200, rejection: undefined },
    { method: "POST", path: "/v1/chat/completions", status: 200, rejection: undefined },
    {
      method: "POST",
      path: "/v1/chat/completions",
      status: 500,
      rejection: "Fake server script exhausted: request 2",
    },
  ]);
  assertEquals(server.requests[2]?.body?.messages, [{ role: "user", content: "y" }]);
});
