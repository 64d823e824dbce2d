/**
 * Routes of the third round, end to end: `deno task start -p` against the fake server serving
 * each route's quirk as a small fixture of our own (each cites where the fact comes from);
 * what stdout and stderr show, and what the next request holds.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { type RawReply, type Reply, startFakeServer } from "../support/fake_server.ts";
import { createTempProject, type RunResult } from "../support/project.ts";
import { answerSummaries, type ScriptStep, sequence, sseReply, text } from "../support/scripts.ts";
import { ENV, KEY, provider } from "../support/sessions.ts";

type Fields = Record<string, unknown>;

/** Runs `-p TASK` (and `-c -p` follow-ups) against `steps`, with `files` in the workspace. */
async function printTasks(
  steps: readonly ScriptStep[],
  tasks: readonly string[][],
  files: Record<string, string> = {},
) {
  const server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    handler: answerSummaries(sequence(steps)),
  });
  const project = await createTempProject();
  try {
    await project.writeProvider(provider(server.url));
    for (const [name, content] of Object.entries(files)) {
      await Deno.writeTextFile(`${project.workspace}/${name}`, content);
    }
    const results: RunResult[] = [];
    for (const args of tasks) results.push(await project.run(args, { env: ENV }));
    const sessions = [...Deno.readDirSync(`${project.dir}/.powercode/sessions`)].map((entry) =>
      Deno.readTextFileSync(`${project.dir}/.powercode/sessions/${entry.name}`)
    );
    const sent = server.requests.map((request) => (request.raw as Fields | undefined)?.messages);
    return { results, requests: server.requests, sent: sent as Fields[][], sessions };
  } finally {
    await project[Symbol.asyncDispose]();
    await server.close();
  }
}

function raw(status: number, contentType: string, body: string): RawReply {
  return { type: "raw", status, contentType, parts: [body] };
}

/**
 * A MiniMax M2 chunk: thinking arrives as `<think>…</think>` at the start of `content`
 * (MiniMax-AI/MiniMax-M2 issue #105; Narcooo/inkos issue #329: it cannot be turned off), with
 * the fields quoted in anomalyco/opencode issue #3555 (`name: "MiniMax AI"`, `audio_content`,
 * an empty `reasoning_content` on every chunk).
 */
function minimax(delta: Fields, finish: string | null = null): Fields {
  const fields = {
    role: "assistant",
    name: "MiniMax AI",
    "audio_content": "",
    "reasoning_content": "",
  };
  return {
    id: "05b1",
    object: "chat.completion.chunk",
    created: 1767225600,
    model: "MiniMax-M2",
    choices: [{ index: 0, delta: { ...fields, ...delta }, finish_reason: finish }],
  };
}

Deno.test("17.1 MiniMax: <think> in the content is not printed; it goes back as sent", async () => {
  // The tags are split across chunks, as a tokenizer may split them.
  const readFirst = sseReply([
    minimax({ content: "<thi" }),
    minimax({ content: "nk>\nI should read a.txt first.\n</th" }),
    minimax({ content: "ink>\n\n" }),
    minimax({
      tool_calls: [{
        index: 0,
        id: "call_function_1",
        type: "function",
        function: { name: "read_file", arguments: '{"path": "a.txt"}' },
      }],
    }, "tool_calls"),
  ]);
  const answer = sseReply([
    minimax({ content: "<think>\nIt says alpha.\n</think>\n\nThe file says alpha." }),
    minimax({ content: "" }, "stop"),
  ]);
  const { results, sent, sessions } = await printTasks(
    [readFirst, answer, text("Nothing else.")],
    [["-p", "what is in a.txt?"], ["-c", "-p", "anything else?"]],
    { "a.txt": "alpha\n" },
  );
  const [first, second] = results;
  assertEquals([first?.code, first?.stdout], [0, "The file says alpha.\n"], first?.stderr);
  assertEquals(first?.stderr.includes("think"), false, first?.stderr);
  assertEquals(sent[1]?.[2], {
    role: "assistant",
    content: "<think>\nI should read a.txt first.\n</think>\n\n",
    tool_calls: [{
      id: "call_function_1",
      type: "function",
      function: { name: "read_file", arguments: '{"path": "a.txt"}' },
    }],
  });
  assertEquals([second?.code, second?.stdout], [0, "Nothing else.\n"], second?.stderr);
  assertEquals(sent[2]?.[4], {
    role: "assistant",
    content: "<think>\nIt says alpha.\n</think>\n\nThe file says alpha.",
  });
  assertStringIncludes(sessions[0] ?? "", '"content":"The file says alpha.","toolCalls":[]');
  assertStringIncludes(sessions[0] ?? "", '"reasoning":"\\nIt says alpha.\\n"');
});

/**
 * A GitHub Copilot chunk of its Claude route: no `model`/`object`, every tool call at
 * `index: 0`, told apart only by its id; the first piece has the id and name and no
 * arguments, then `arguments: ""`, then the arguments in pieces (microsoft/vscode-copilot-chat
 * `src/platform/endpoint/test/node/stream.sseProcessor.spec.ts`, "multiple tool calls"); our ids.
 */
function copilot(delta: Fields, finish?: string): Fields {
  const choice = { index: 0, delta, ...(finish ? { finish_reason: finish } : {}) };
  return { choices: [choice], created: 1767225601, id: "c0ffee01", model: "claude-3.5-sonnet" };
}

function copilotCall(id: string, path: string): Fields[] {
  const piece = (fn: Fields, extra: Fields = {}) =>
    copilot({
      content: null,
      tool_calls: [{ function: fn, index: 0, type: "function", ...extra }],
    });
  return [
    piece({ name: "read_file" }, { id }),
    piece({ arguments: "" }),
    piece({ arguments: '{"pa' }),
    piece({ arguments: `th":"${path}` }),
    piece({ arguments: '"}' }),
  ];
}

Deno.test("17.2 Copilot: two calls at one index are two calls, each answered", async () => {
  const both = sseReply([
    copilot({ content: "I'll read both files:", role: "assistant" }),
    ...copilotCall("tooluse_Ab3dEf5G", "a.txt"),
    ...copilotCall("tooluse_Hj7kLm9N", "b.txt"),
    copilot({ content: null }, "tool_calls"),
  ]);
  const { results, sent } = await printTasks([both, text("Both read.")], [["-p", "read a and b"]], {
    "a.txt": "alpha\n",
    "b.txt": "beta\n",
  });
  const [run] = results;
  assertEquals([run?.code, run?.stdout], [0, "Both read.\n"], run?.stderr);
  assertStringIncludes(run?.stderr ?? "", "● read_file a.txt");
  assertStringIncludes(run?.stderr ?? "", "● read_file b.txt");
  assertEquals(run?.stderr.includes("Unknown tool"), false, run?.stderr);
  const calls = (sent[1]?.[2]?.tool_calls as Fields[]).map((call) => [call.id, call.function]);
  assertEquals(calls, [
    ["tooluse_Ab3dEf5G", { name: "read_file", arguments: '{"path":"a.txt"}' }],
    ["tooluse_Hj7kLm9N", { name: "read_file", arguments: '{"path":"b.txt"}' }],
  ]);
  assertEquals(sent[1]?.slice(3).map((message) => message.tool_call_id), [
    "tooluse_Ab3dEf5G",
    "tooluse_Hj7kLm9N",
  ]);
  assertMatch(String(sent[1]?.[3]?.content), /alpha/);
  assertMatch(String(sent[1]?.[4]?.content), /beta/);
});

Deno.test("17.3 NIM: a name repeated in every piece is the name once", async () => {
  // MiniMax M2.7 via NVIDIA NIM sends the full function name in every tool-call chunk
  // (NousResearch/hermes-agent issue #8259, AstrBotDevs/AstrBot PR #7735); chunk shape of a
  // vLLM route (`chatcmpl-tool-` ids, `index` also in `delta`, `content: ""` on every delta).
  const chunk = (delta: Fields, finish: string | null = null) => ({
    id: "4c2a",
    object: "chat.completion.chunk",
    created: 1767225602,
    model: "minimaxai/minimax-m2.7",
    choices: [{ index: 0, delta: { index: 0, content: "", ...delta }, finish_reason: finish }],
  });
  const repeated = sseReply([
    chunk({
      tool_calls: [{
        id: "chatcmpl-tool-b7e3",
        type: "function",
        index: 0,
        function: { name: "read_file", arguments: "" },
      }],
    }),
    chunk({
      tool_calls: [{
        type: "function",
        index: 0,
        function: { name: "read_file", arguments: '{"path": "a.txt"}' },
      }],
    }),
    chunk({}, "tool_calls"),
  ]);
  const { results, sent } = await printTasks([repeated, text("Read.")], [["-p", "read a"]], {
    "a.txt": "alpha\n",
  });
  const [run] = results;
  assertEquals([run?.code, run?.stdout], [0, "Read.\n"], run?.stderr);
  assertStringIncludes(run?.stderr ?? "", "● read_file a.txt");
  assertEquals((sent[1]?.[2]?.tool_calls as Fields[])[0]?.function, {
    name: "read_file",
    arguments: '{"path": "a.txt"}',
  });
  assertMatch(String(sent[1]?.[3]?.content), /alpha/);
});

Deno.test("17.4 Copilot: its prompt-token overflow compacts and retries once", async () => {
  // Our body in Copilot's wording and code ("prompt token count of N exceeds the limit of M",
  // `model_max_prompt_tokens_exceeded`; undocumented API, wording as reported in microsoft/vscode
  // issue #289219).
  const overflow = raw(
    400,
    "application/json",
    '{"error":{"message":"prompt token count of 70412 exceeds the limit of 64000","code":"model_max_prompt_tokens_exceeded"}}',
  );
  const { results, requests } = await printTasks([overflow, text("Recovered.")], [["-p", "hi"]]);
  const [run] = results;
  assertEquals([run?.code, run?.stdout], [0, "Recovered.\n"], run?.stderr);
  assertStringIncludes(
    run?.stderr ?? "",
    "⚠ The request is too long for the model: prompt token count of 70412 exceeds the limit of 64000; compacting and retrying once",
  );
  assertEquals(requests.map((request) => request.status), [400, 200]);
});

Deno.test("17.5 MiniMax: a bad key answered inside HTTP 200 is one line at once", async () => {
  // Our body: HTTP 200, application/json, the error in `base_resp` with MiniMax's documented
  // code 2049 and its message "invalid api key" (MiniMax API reference, "Error Codes";
  // lobehub/lobehub PR #10255 maps these codes); our id and empty choices around it.
  const refused = raw(
    200,
    "application/json",
    '{"id":"7e21","choices":[],"base_resp":{"status_code":2049,"status_msg":"invalid api key"}}',
  );
  const { results, requests } = await printTasks([refused, refused], [["-p", "hi"]]);
  const [run] = results;
  assertEquals([run?.code, run?.stdout], [1, ""]);
  assertEquals(
    run?.stderr.trim().split("\n").at(-1),
    '✗ The provider refused the API key (MiniMax status 2049): invalid api key; check "apiKey" in provider.json',
  );
  assertEquals(requests.length, 1);
});

Deno.test("17.5 llama-server: an overflow in an `error:` line after HTTP 200 compacts", async () => {
  // Older llama-server wrote a stream error as `error: <json>` (its server_sent_event(sink,
  // "error", …)), then `data: [DONE]` (ggml-org/llama.cpp, before PR #16486). Our numbers in
  // its wording and error type (ggml-org/llama.cpp tools/server: ERROR_TYPE_EXCEED_CONTEXT_SIZE).
  const inStream: Reply = {
    type: "raw",
    status: 200,
    contentType: "text/event-stream",
    parts: [
      'error: {"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":9350,"n_ctx":8192}\n\n',
      "data: [DONE]\n\n",
    ],
  };
  const { results, requests } = await printTasks([inStream, text("Recovered.")], [["-p", "hi"]]);
  const [run] = results;
  assertEquals([run?.code, run?.stdout], [0, "Recovered.\n"], run?.stderr);
  assertStringIncludes(
    run?.stderr ?? "",
    "⚠ The request is too long for the model: the request exceeds the available context size, try increasing it; compacting and retrying once",
  );
  assertEquals(requests.length, 2);
});

Deno.test("17.6 OpenAI: a 429 for an account without quota is not retried", async () => {
  // Our body with OpenAI's documented 429 wording and code `insufficient_quota`
  // (https://platform.openai.com/docs/guides/error-codes, "You exceeded your current quota").
  const quota = raw(
    429,
    "application/json",
    '{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","code":"insufficient_quota"}}',
  );
  const { results, requests } = await printTasks([quota, quota], [["-p", "hi"]]);
  const [run] = results;
  assertEquals([run?.code, run?.stdout], [1, ""]);
  assertEquals(
    run?.stderr.trim().split("\n").at(-1),
    "✗ The account has no quota left (429 insufficient_quota): You exceeded your current quota, please check your plan and billing details; check its plan and billing",
  );
  assertEquals(run?.stderr.includes("↻"), false, run?.stderr);
  assertEquals(requests.length, 1);
});

Deno.test("17.7 a gateway's HTML error page is one line with its status and title", async () => {
  // Our minimal page in the style of nginx's own 502 page (nginx/nginx
  // src/http/ngx_http_special_response.c, ngx_http_error_502_page): its title is what counts.
  const page = raw(
    502,
    "text/html",
    "<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n<h1>502 Bad Gateway</h1>\n<p>The upstream did not answer.</p>\n<hr>nginx\n</body>\n</html>\n",
  );
  const { results } = await printTasks([page, text("Fine.")], [["-p", "hi"]]);
  const [run] = results;
  assertEquals([run?.code, run?.stdout], [0, "Fine.\n"], run?.stderr);
  const retries = run?.stderr.split("\n").filter((line) => line.startsWith("↻")) ?? [];
  assertEquals(retries.length, 1, run?.stderr);
  // The retry line is cut to 80 columns on a pipe; the client's tests check the whole reason.
  assertMatch(
    retries[0] ?? "",
    /^↻ The provider failed \(502\): HTML page "502 Bad ?…; retrying in \d\.\d s \(attempt 1\)$/,
  );
  assert(!run?.stderr.includes("<html>"));
});
