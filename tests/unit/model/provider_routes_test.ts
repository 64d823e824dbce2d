/**
 * The chat client against the quirks of the third round's routes, each a small fixture of our
 * own (citing where the fact comes from), served over HTTP by the fake server: what the reply
 * or the one-line error holds.
 */
import { assertEquals, assertInstanceOf } from "@std/assert";
import { createChatClient } from "../../../src/model/client.ts";
import { ChatError, type ChatOptions } from "../../../src/model/chat_model.ts";
import { type RawReply, type Reply, startFakeServer } from "../../support/fake_server.ts";
import { sequence, sseReply } from "../../support/scripts.ts";

type Fields = Record<string, unknown>;

async function ask(replies: Reply[], maxRetries = 0) {
  await using server = await startFakeServer({ handler: sequence(replies) });
  const seen: string[] = [];
  const options: ChatOptions = {
    onText: (text) => seen.push(`text:${text}`),
    onReasoning: (text) => seen.push(`reasoning:${text}`),
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
  return { outcome, seen, requests: server.requests.length };
}

async function failure(replies: Reply[], maxRetries = 0): Promise<ChatError> {
  const { outcome } = await ask(replies, maxRetries);
  assertInstanceOf(outcome, ChatError);
  return outcome;
}

async function reply(replies: Reply[]) {
  const { outcome, seen } = await ask(replies);
  if (outcome instanceof Error) throw outcome;
  return { ...(outcome as { message: Fields }), seen };
}

function raw(status: number, contentType: string, body: string): RawReply {
  return { type: "raw", status, contentType, parts: [body] };
}

function chunk(delta: Fields, finish: string | null = null): Fields {
  return {
    id: "c",
    object: "chat.completion.chunk",
    created: 1,
    model: "m",
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

Deno.test("17.4 every new overflow wording is a context overflow", async (t) => {
  const cases: [string, RawReply, string][] = [
    [
      // Our numbers in Copilot's wording and code (undocumented API; wording as reported in
      // microsoft/vscode issue #289219).
      "GitHub Copilot",
      raw(
        400,
        "application/json",
        '{"error":{"message":"prompt token count of 98304 exceeds the limit of 90000","code":"model_max_prompt_tokens_exceeded"}}',
      ),
      "prompt token count of 98304 exceeds the limit of 90000",
    ],
    [
      // badlogic/pi-mono packages/ai/src/utils/overflow.ts: "Cerebras: Returns 400/413 status
      // code (no body)".
      "Cerebras",
      raw(413, "", ""),
      "HTTP 413 with an empty body",
    ],
    [
      // Our numbers in TGI's wording (huggingface/text-generation-inference
      // router/src/validation.rs, ValidationError::MaxTotalTokens), HTTP 422 in the Hugging Face
      // router's envelope.
      "Hugging Face TGI",
      raw(
        422,
        "application/json",
        '{"error":{"message":"Input validation error: `inputs` tokens + `max_new_tokens` must be <= 2048. Given: 1900 `inputs` tokens and 512 `max_new_tokens`","http_status_code":422}}',
      ),
      "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 2048. Given: 1900 `inputs` tokens and 512 `max_new_tokens`",
    ],
    [
      // Bedrock's wording as listed by pi-mono's overflow.ts; OpenAI's error envelope.
      "Bedrock (OpenAI-compatible endpoint)",
      raw(
        400,
        "application/json",
        '{"error":{"message":"Input is too long for requested model.","type":"invalid_request_error"}}',
      ),
      "Input is too long for requested model",
    ],
    [
      // MiniMax's wording as listed by pi-mono's overflow.ts, in its base_resp envelope.
      "MiniMax (inside a 200)",
      raw(
        200,
        "application/json",
        '{"base_resp":{"status_code":2013,"status_msg":"invalid params, context window exceeds limit"}}',
      ),
      "invalid params, context window exceeds limit",
    ],
  ];
  for (const [route, body, message] of cases) {
    await t.step(route, async () => {
      const error = await failure([body]);
      assertEquals([error.kind, error.message], [
        "context_overflow",
        `The request is too long for the model: ${message}`,
      ]);
    });
  }
});

Deno.test("17.2 Ollama 0.20: two whole calls at index 0 stay two calls", async () => {
  // ollama/ollama issue #15457: "tool_calls index is always 0 for multiple tool calls".
  const call = (id: string, command: string) =>
    chunk({
      role: "assistant",
      content: "",
      "tool_calls": [{
        id,
        index: 0,
        type: "function",
        function: { name: "bash", arguments: JSON.stringify({ command }) },
      }],
    });
  const { message } = await reply([sseReply([
    call("call_wteop8bt", "ls"),
    call("call_rk2xye1l", "ls -l"),
    chunk({ role: "assistant", content: "" }, "tool_calls"),
  ])]);
  assertEquals(message.toolCalls, [
    { id: "call_wteop8bt", name: "bash", arguments: '{"command":"ls"}' },
    { id: "call_rk2xye1l", name: "bash", arguments: '{"command":"ls -l"}' },
  ]);
});

Deno.test("17.2 a piece repeating its call's id continues that call", async () => {
  const piece = (args: string) =>
    chunk({
      "tool_calls": [{ id: "call_a", index: 0, function: { name: "", arguments: args } }],
    });
  const first = chunk({
    "tool_calls": [{ id: "call_a", index: 0, function: { name: "read_file", arguments: "" } }],
  });
  const { message } = await reply([
    sseReply([first, piece('{"path":'), piece('"a"}'), chunk({}, "tool_calls")]),
  ]);
  assertEquals(message.toolCalls, [{ id: "call_a", name: "read_file", arguments: '{"path":"a"}' }]);
});

Deno.test("17.1 <think> tags: split anywhere, never closed, after whitespace, or absent", async () => {
  const texts = async (pieces: string[]) => {
    const replied = await reply([
      sseReply([...pieces.map((content) => chunk({ content })), chunk({}, "stop")]),
    ]);
    const { content, reasoning, thinkBlock } = replied.message;
    return { content, reasoning, thinkBlock };
  };
  const whole = "<think>\nplan\n</think>\n\nAnswer <think> is text here.";
  assertEquals(await texts([...whole]), {
    content: "Answer <think> is text here.",
    reasoning: "\nplan\n",
    thinkBlock: "<think>\nplan\n</think>\n\n",
  });
  assertEquals(await texts(["\n<think>cut off"]), {
    content: "",
    reasoning: "cut off",
    thinkBlock: "\n<think>cut off",
  });
  assertEquals(await texts(["<thin", "king is fun"]), {
    content: "<thinking is fun",
    reasoning: undefined,
    thinkBlock: undefined,
  });
  assertEquals(await texts(["  ", "<"]), {
    content: "  <",
    reasoning: undefined,
    thinkBlock: undefined,
  });
});

Deno.test("17.5 errors inside a 200: MiniMax's codes, a JSON error, an HTML page", async () => {
  const minimax = (code: number, message: string) =>
    raw(
      200,
      "application/json",
      JSON.stringify({ "base_resp": { "status_code": code, "status_msg": message } }),
    );
  // MiniMax's API reference, "Error Codes": 1002 rate limit (retry), 1008 insufficient balance.
  const limited = await failure([minimax(1002, "rate limit"), minimax(1002, "rate limit")], 1);
  assertEquals([limited.kind, limited.message], [
    "rate_limited",
    "The provider failed (MiniMax status 1002): rate limit",
  ]);
  const balance = await failure([minimax(1008, "insufficient balance")]);
  assertEquals([balance.kind, balance.message], [
    "bad_request",
    "The account has no quota left (MiniMax status 1008): insufficient balance; check its plan and balance",
  ]);
  const error = await failure([
    raw(200, "application/json", '{"error":{"message":"Invalid model name","code":400}}'),
  ]);
  assertEquals([error.kind, error.message], [
    "bad_request",
    "The provider reported an error mid-reply: Invalid model name",
  ]);
  const page = await failure([
    raw(200, "text/html", "<!doctype html><html><head><title>Open WebUI</title></head></html>"),
  ]);
  assertEquals([page.kind, page.message], [
    "bad_request",
    'The provider answered 200 with an HTML page "Open WebUI" instead of a reply; check "baseURL" in provider.json',
  ]);
});

Deno.test("a server that ignores stream: true and answers one JSON completion is read", async () => {
  const completion = {
    id: "x",
    object: "chat.completion",
    created: 1,
    model: "m",
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        content: null,
        "tool_calls": [{
          id: "call_1",
          type: "function",
          function: { name: "read_file", arguments: '{"path":"a"}' },
        }],
      },
      "finish_reason": "tool_calls",
    }],
    usage: { "prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8 },
  };
  const { message, totalTokens } = await reply([
    raw(200, "application/json", JSON.stringify(completion)),
  ]) as unknown as {
    message: Fields;
    totalTokens: number;
  };
  assertEquals([message.toolCalls, totalTokens], [[{
    id: "call_1",
    name: "read_file",
    arguments: '{"path":"a"}',
  }], 8]);
});

Deno.test("17.7 HTML error pages are their status and title", async () => {
  // Our page in the style of nginx's 502 page (nginx/nginx src/http/ngx_http_special_response.c,
  // ngx_http_error_502_page), CRLF line ends as nginx writes them.
  const nginx = await failure([raw(
    502,
    "text/html",
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<h1>Bad Gateway</h1>\r\n<p>No upstream answered.</p>\r\n</body>\r\n</html>\r\n",
  )]);
  assertEquals([nginx.kind, nginx.message], [
    "server",
    'The provider failed (502): HTML page "502 Bad Gateway"',
  ]);
  // Cloudflare's block page title, with its content type in another case and no title.
  const blocked = await failure([
    raw(
      403,
      "text/html; charset=UTF-8",
      "<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title>",
    ),
  ]);
  assertEquals(
    blocked.message,
    'The provider refused the API key (403): HTML page "Attention Required! | Cloudflare"; check "apiKey" in provider.json',
  );
  const bare = await failure([raw(500, "text/plain", "<html><body>" + "<".repeat(50_000))]);
  assertEquals(bare.message, "The provider failed (500): HTML page without a title");
});

Deno.test("the stream reader: data: without a space, CRLF and CR line ends split across reads", async () => {
  const body = (parts: string[]): RawReply => ({
    type: "raw",
    status: 200,
    contentType: "text/event-stream",
    parts,
    chunkDelayMs: 5,
  });
  const json = (content: string) => JSON.stringify(chunk({ content }));
  // TGI writes `data:<json>` (axum's Event::field); sse-starlette ends lines with CRLF.
  const { message } = await reply([body([
    `data:${json("One")}\n\n`,
    `data: ${json(" two")}\r`,
    `\n\r\n: comment\r\r`,
    `data: ${json(" three")}\r\n`,
    `\r\ndata: ${JSON.stringify(chunk({}, "stop"))}\n\ndata:[DONE]\n\n`,
  ])]);
  assertEquals(message.content, "One two three");
});

Deno.test("the stream reader: characters, `data:` and blank lines cut across reads", async () => {
  // A proxy may cut a stream anywhere; the quotes and dashes are those of a recorded Qwen
  // answer (vercel/ai packages/alibaba/src/__fixtures__/alibaba-text.chunks.txt).
  const events = ["It’s", " here — and", " there – too"].map((content) =>
    `data: ${JSON.stringify(chunk({ content }))}\n\n`
  );
  const bytes = new TextEncoder().encode(
    [...events, `data: ${JSON.stringify(chunk({}, "stop"))}\n\n`, "data: [DONE]\n\n"].join(""),
  );
  const cuts = [...bytes.keys()].filter((i) =>
    i > 0 && (((bytes[i] ?? 0) & 0xc0) === 0x80 || bytes[i] === 0x3a || bytes[i] === 0x0a)
  );
  const parts = [0, ...cuts].map((start, k) => bytes.slice(start, cuts[k] ?? bytes.length));
  const { message } = await reply([{
    type: "raw",
    status: 200,
    contentType: "text/event-stream",
    parts,
    chunkDelayMs: 1,
  }]);
  assertEquals(message.content, "It’s here — and there – too");
});
