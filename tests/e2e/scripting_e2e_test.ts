/**
 * End-to-end: powercode in scripts, through `deno task start` against the fake server:
 * `--output-format json|stream-json` (checked against the README's schema), the exit codes,
 * budgets refused before a request is sent, `/cost`, and Ctrl+C on `-p`.
 *
 * @module
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { type RecordedRequest, startFakeServer, type TextReply } from "../support/fake_server.ts";
import type { ToolCallsReply } from "../support/replies.ts";
import { hang, sequence, text, toolCall } from "../support/scripts.ts";
import { answerUsage, toAnswer } from "../support/sse.ts";
import { PromptCache } from "../support/prompt_cache.ts";
import { readEventSchemas, schemaProblems } from "../support/event_schema.ts";
import { createTempProject } from "../support/project.ts";
import { powercodePid } from "../support/processes.ts";
import { ENV, KEY, provider, sessionIds } from "../support/sessions.ts";
import { screenLines, startInTmux, typeTask, waitForPrompt } from "../support/repl_pane.ts";
import { formatTokens } from "../../src/ui/status_line.ts";
import { MIN_REPLY_TOKENS } from "../../src/context/spending.ts";
import { tmuxTest } from "../support/programs.ts";

const SCHEMAS = readEventSchemas(
  await Deno.readTextFile(new URL("../../docs/scripting.md", import.meta.url)),
);

/** Writes a script, runs it, answers with the key in it (which must come out redacted). */
const TWO_TOOLS: (TextReply | ToolCallsReply)[] = [
  toolCall("write_file", { path: "hello.sh", content: "echo hello\n" }),
  toolCall("bash", { command: "bash hello.sh" }),
  text(`It prints hello. Your key is ${KEY}.`),
];
const ANSWER = "It prints hello. Your key is [redacted].";

/** The usage the fake server reported for `requests`, answered by `replies` in order. */
function reportedUsage(
  requests: readonly RecordedRequest[],
  replies: readonly (TextReply | ToolCallsReply)[],
) {
  const cache = new PromptCache();
  let prompt = 0;
  let cached = 0;
  let completion = 0;
  requests.forEach((request, index) => {
    const reply = replies[index];
    if (!request.body || !reply) throw new TypeError(`request ${index} has no body or reply`);
    prompt += request.promptTokens;
    cached += cache.serve(request.body);
    completion += answerUsage(toAnswer(reply, () => "id"), 0).completion_tokens;
  });
  return { prompt, completion, cached, total: prompt + completion };
}

function parseLines(stdout: string): Record<string, unknown>[] {
  assert(stdout.endsWith("\n"), `stdout does not end with a newline: ${stdout}`);
  return stdout.slice(0, -1).split("\n").map((line) => JSON.parse(line));
}

Deno.test("-p --output-format json prints one result object: answer, status, steps, usage", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    handler: sequence(TWO_TOOLS),
    promptCache: true,
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const result = await project.run(["-p", "write and run it", "--output-format", "json"], {
    env: ENV,
  });
  assertEquals(result.code, 0, result.stderr);
  const lines = parseLines(result.stdout);
  assertEquals(lines.length, 1);
  const [session] = await sessionIds(project.dir);
  const usage = reportedUsage(server.requests, TWO_TOOLS);
  assert(usage.cached > 0, "the fake served the second and third requests from its cache");
  const object = lines[0] ?? {};
  assertEquals(typeof object.duration_ms, "number");
  assertEquals(object, {
    type: "result",
    status: "done",
    result: ANSWER,
    session,
    steps: 3,
    usage,
    "duration_ms": object.duration_ms,
  });
  assertStringIncludes(result.stderr, "● write_file hello.sh");
  assert(!result.stdout.includes(KEY) && !result.stderr.includes(KEY));
});

Deno.test("-p --output-format stream-json prints JSON lines in order, each as the README's schema says", async () => {
  await using server = await startFakeServer({ model: "fake-model", handler: sequence(TWO_TOOLS) });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const result = await project.run(["-p", "write and run it", "--output-format", "stream-json"], {
    env: ENV,
  });
  assertEquals(result.code, 0, result.stderr);
  const events = parseLines(result.stdout);
  for (const event of events) {
    const schema = SCHEMAS.get(String(event.type));
    assert(schema, `event type ${event.type} is not in the README`);
    assertEquals(schemaProblems(event, schema), [], JSON.stringify(event));
  }
  const types = events.map((event) => event.type)
    .filter((type, index, all) => type !== "text_delta" || all[index - 1] !== "text_delta");
  assertEquals(types, [
    "start",
    "tool_call",
    "tool_result",
    "tool_call",
    "tool_result",
    "text_delta",
    "result",
  ]);
  const [session] = await sessionIds(project.dir);
  assertEquals(events[0], {
    type: "start",
    session,
    model: "fake-model",
    roots: [await Deno.realPath(project.workspace)],
  });
  const calls = events.filter((event) => event.type === "tool_call");
  const results = events.filter((event) => event.type === "tool_result");
  assertEquals(calls.map((call) => call.name), ["write_file", "bash"]);
  assertEquals(results.map((item) => item.id), calls.map((call) => call.id));
  assertEquals(results.map((item) => [item.isError, item.summary]), [
    [false, "created, 1 line, 11 B"],
    [false, "exit 0"],
  ]);
  // The byte counts are those of the tool results the model read in the next requests.
  const sent = server.requests.at(-1)?.body?.messages.filter((m) => m.role === "tool") ?? [];
  assertEquals(
    results.map((item) => item.bytes),
    sent.map((m) => new TextEncoder().encode(m.content ?? "").length),
  );
  const streamed = events.filter((event) => event.type === "text_delta").map((e) => e.text);
  assertEquals(streamed.join(""), ANSWER);
  const last = events.at(-1) ?? {};
  assertEquals(last, {
    type: "result",
    status: "done",
    result: ANSWER,
    session,
    steps: 3,
    usage: { ...reportedUsage(server.requests, TWO_TOOLS), cached: 0 },
    "duration_ms": last.duration_ms,
  });
  assert(!result.stdout.includes(KEY));
});

Deno.test("-p exits 3 with status step_limit at --max-steps, in json and in text", async () => {
  const step = toolCall("bash", { command: "true" });
  await using server = await startFakeServer({ handler: sequence([step, step]) });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const json = await project.run(
    ["-p", "two steps", "--max-steps", "1", "--output-format", "json"],
    {
      env: ENV,
    },
  );
  assertEquals(json.code, 3, json.stderr);
  const [object] = parseLines(json.stdout);
  assertEquals([object?.status, object?.steps, object?.result], ["step_limit", 1, ""]);
  assertMatch(String(object?.error), /^Stopped after 1 model call \(--max-steps 1\)/);
  const plain = await project.run(["-p", "two steps", "--max-steps", "1"], { env: ENV });
  assertEquals([plain.code, plain.stdout], [3, ""]);
  assertMatch(plain.stderr, /✗ Stopped after 1 model call \(--max-steps 1\)/);
});

Deno.test("--max-tokens below the next request's estimate exits 4 without sending it; -c continues", async () => {
  const script = [toolCall("read_file", { path: "notes.txt" }), text("Read.")];
  await using server = await startFakeServer({ handler: sequence([script[0]!, ...script]) });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  await Deno.writeTextFile(`${project.workspace}/notes.txt`, "a note\n".repeat(50));
  // One step alone measures the first request; the second repeats it and adds the step.
  const probe = await project.run(["-p", "read the notes", "--max-steps", "1"], { env: ENV });
  assertEquals(probe.code, 3, probe.stderr);
  const first = server.requests[0]?.promptTokens ?? 0;
  // Room for the first request and the shortest reply allowance, not for the second.
  const limit = Math.round(first * 1.5) + MIN_REPLY_TOKENS;
  const budget = await project.run(
    ["-p", "read the notes", "--max-tokens", String(limit), "--output-format", "json"],
    { env: ENV },
  );
  assertEquals(budget.code, 4, budget.stderr);
  assertEquals(server.requests.length, 2, "the budget run sent one request, not two");
  const [object] = parseLines(budget.stdout);
  const spent = (object?.usage as { total: number }).total;
  assertEquals([object?.status, object?.steps], ["budget", 1]);
  const line = new RegExp(
    `^Budget reached: this session has spent ${spent} of its ${limit} tokens, and the next ` +
      `request could take \\d+ more \\(approx \\d+ prompt \\+ ${MIN_REPLY_TOKENS} reply tokens\\); ` +
      "it was not sent$",
  );
  assertMatch(String(object?.error), line);
  assertStringIncludes(budget.stderr, `✗ Budget reached: this session has spent ${spent} of`);
  // The session is kept: without the limit, -c goes on from it.
  const resumed = await project.run(["-c", "-p", "go on"], { env: ENV });
  assertEquals([resumed.code, resumed.stdout], [0, "Read.\n"], resumed.stderr);
  const last = server.requests.at(-1)?.body?.messages.at(-1)?.content ?? "";
  assertStringIncludes(last, "stopped on an error before it finished: Budget reached");
  assertStringIncludes(last, "go on");
});

Deno.test("--max-cost refuses a request it cannot afford (exit 4) and needs prices (exit 2)", async () => {
  await using server = await startFakeServer({ handler: sequence([text("Never sent.")]) });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const unpriced = await project.run(["-p", "hi", "--max-cost", "0.5"], { env: ENV });
  assertEquals([unpriced.code, unpriced.stdout], [2, ""]);
  assertMatch(unpriced.stderr, /^powercode: Cannot use --max-cost without prices: add "pricing"/);
  // A thousand dollars per million tokens: the first request alone would cost dollars.
  await project.writeProvider(provider(server.url, { pricing: { input: 1000, output: 1000 } }));
  const result = await project.run(["-p", "hi", "--max-cost", "0.5"], { env: ENV });
  assertEquals([result.code, result.stdout], [4, ""]);
  assertMatch(
    result.stderr,
    new RegExp(
      "^✗ Budget reached: this session has spent \\$0\\.0000 of its \\$0\\.5000, and the next " +
        "request could cost \\$\\d+\\.\\d\\d more \\(approx \\d+ prompt \\+ " +
        `${MIN_REPLY_TOKENS} reply tokens\\); it was not sent\n`,
    ),
  );
  assertEquals(server.requests.length, 0);
});

Deno.test("a budget in provider.json stops the REPL's second task; /cost shows it", async () => {
  await using server = await startFakeServer({ handler: sequence([text("One."), text("Two.")]) });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const probe = await project.run(["-p", "first"], { env: ENV });
  assertEquals(probe.code, 0, probe.stderr);
  const tokens = Math.round((server.requests[0]?.promptTokens ?? 0) * 1.5) + MIN_REPLY_TOKENS;
  await project.writeProvider(provider(server.url, { budget: { tokens } }));
  const result = await project.run([], { stdin: "first\nsecond\n/cost\n", env: ENV });
  assertEquals(result.code, 1, result.stderr);
  assertEquals(server.requests.length, 2);
  const lines = result.stdout.split("\n");
  assertEquals(lines[0], "Two.");
  assertMatch(lines[1] ?? "", /^✗ Budget reached: this session has spent \d+ of its \d+ tokens/);
  assertEquals(
    lines.at(-2),
    `Budget for this session: ${tokens} tokens (${
      /spent (\d+) of/.exec(lines[1] ?? "")?.[1]
    } spent)`,
  );
});

Deno.test("/cost shows tokens, the cached share and a cost consistent with the fake's usage", async () => {
  const replies = [text("One."), text("Two.")];
  await using server = await startFakeServer({ handler: sequence(replies), promptCache: true });
  await using project = await createTempProject();
  const pricing = { input: 3, cachedInput: 0.3, output: 15 };
  await project.writeProvider(provider(server.url, { pricing }));
  const result = await project.run([], { stdin: "first\nsecond\n/cost\n", env: ENV });
  assertEquals(result.code, 0, result.stderr);
  const session = reportedUsage(server.requests, replies);
  const task = { ...reportedUsage(server.requests.slice(1), replies.slice(1)) };
  // The second request starts with the first one's tools and messages: the fake cached them.
  task.cached = session.cached;
  assert(task.cached > 0);
  const cost = (usage: typeof task) =>
    ((usage.prompt - usage.cached) * pricing.input + usage.cached * pricing.cachedInput +
      usage.completion * pricing.output) / 1_000_000;
  const describe = (usage: typeof task, requests: string) =>
    `${requests}, ${usage.total} tokens: prompt ${usage.prompt} (${usage.cached} cached, ${
      Math.round(usage.cached / usage.prompt * 100)
    }%), completion ${usage.completion}, $${cost(usage).toFixed(4)}`;
  assertEquals(result.stdout.split("\n").slice(0, 6), [
    "One.",
    "Two.",
    `Last task: ${describe(task, "1 request")}`,
    `Session:   ${describe(session, "2 requests")}`,
    "Prices per million tokens: input $3, cached input $0.3, output $15",
    'Budget: none (--max-tokens, --max-cost, or "budget" in the provider file)',
  ]);
});

Deno.test("Ctrl+C (SIGINT) on -p exits 130 with status interrupted and keeps the session", async () => {
  await using server = await startFakeServer({ handler: sequence([hang()]) });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const child = project.spawn(["-p", "wait", "--output-format", "stream-json"], { env: ENV });
  await child.stdin.close();
  const output = child.output();
  for (let waited = 0; server.requests.length === 0; waited += 50) {
    assert(waited < 20_000, "the request never reached the server");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // To powercode itself, as a terminal's Ctrl+C reaches it: `deno task` may end first when
  // it gets the signal too.
  Deno.kill(await powercodePid(child.pid), "SIGINT");
  const { code, stdout } = await output;
  assertEquals(code, 130);
  const events = parseLines(new TextDecoder().decode(stdout));
  const last = events.at(-1) ?? {};
  assertEquals([last.type, last.status, last.error], [
    "result",
    "interrupted",
    "interrupted by the user",
  ]);
  const [session] = await sessionIds(project.dir);
  assertEquals(last.session, session);
});

tmuxTest(
  "on a terminal the line after a task shows the task's and the session's tokens and cost",
  async () => {
    const replies = [text("One."), text("Two.")];
    await using server = await startFakeServer({ handler: sequence(replies), promptCache: true });
    await using project = await createTempProject();
    const pricing = { input: 100, cachedInput: 10, output: 200 };
    await project.writeProvider(provider(server.url, { pricing }));
    await using pane = await startInTmux(project, { env: { NO_COLOR: "1" } });
    await typeTask(pane, "first");
    await pane.waitFor((screen) => screen.includes("One."), "the first answer");
    await waitForPrompt(pane);
    await typeTask(pane, "second");
    await pane.waitFor((screen) => screen.includes("Two."), "the second answer");
    const screen = await waitForPrompt(pane);
    const session = reportedUsage(server.requests, replies);
    const task = reportedUsage(server.requests.slice(1), replies.slice(1));
    task.cached = session.cached;
    const dollars = (usage: typeof task) =>
      ((usage.prompt - usage.cached) * pricing.input + usage.cached * pricing.cachedInput +
        usage.completion * pricing.output) / 1e6;
    const part = (name: string, usage: typeof task) =>
      `${name} ${formatTokens(usage.total)} tokens, ${
        Math.round(usage.cached / usage.prompt * 100)
      }% cached, $${dollars(usage).toFixed(4)}`;
    const line = screenLines(screen).at(-2) ?? "";
    assertMatch(line, /^context [\d.]+k? \/ 32\.8k tokens \(\d+%\) · /);
    assertEquals(line.split(" · ").slice(1), [part("task", task), part("session", session)]);
  },
);
