/**
 * End-to-end compaction: `deno task start` (the real permission set) in a temp copy of the
 * project against the strict fake server, whose context window rejects over-long requests
 * and whose summarizer carries every `FACT-<n>` token forward, so the tests measure the
 * pipeline, not a model.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { type ChatMessage, type RecordedRequest, startFakeServer } from "../support/fake_server.ts";
import {
  factOf,
  factPath,
  readFactsHandler,
  sessionMessages,
  writeFactFiles,
} from "../support/facts.ts";
import { createTempProject } from "../support/project.ts";
import { countTextTokens } from "../support/tokens.ts";
import {
  answerSummaries,
  factsIn,
  httpError,
  isSummaryRequest,
  lastMessage,
  lastUserText,
  sequence,
  text,
  toolCall,
} from "../support/scripts.ts";

const KEY = "sk-test-compaction";
const ENV = { POWERCODE_TEST_KEY: KEY };
const COMPRESSED = "✓ Context compression complete";
const SUMMARY_START = "The conversation before this point was compacted";

function provider(url: string, contextWindow: number) {
  return { baseURL: url, apiKey: "env:POWERCODE_TEST_KEY", model: "fake-model", contextWindow };
}

function summaries(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter((request) => isSummaryRequest(request));
}

function tasks(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter((request) => !isSummaryRequest(request));
}

function peakTokens(requests: readonly RecordedRequest[]): number {
  return Math.max(...requests.map((request) => request.promptTokens));
}

function hasToolsKey(request: RecordedRequest): boolean {
  return typeof request.raw === "object" && request.raw !== null && "tools" in request.raw;
}

function wireMessages(request: RecordedRequest | undefined): unknown[] {
  const raw = request?.raw;
  return typeof raw === "object" && raw !== null && "messages" in raw && Array.isArray(raw.messages)
    ? raw.messages
    : [];
}

/**
 * Summary requests that are neither serialized (no `tools` key) nor the request before them
 * with the instruction appended, so that a provider serves all but the instruction from its
 * prompt cache.
 */
function misshapenSummaries(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter((request, index) => {
    if (!isSummaryRequest(request) || !hasToolsKey(request)) return false;
    const prefix = wireMessages(request).slice(0, -1);
    const before = wireMessages(requests[index - 1]).slice(0, prefix.length);
    return JSON.stringify(prefix) !== JSON.stringify(before);
  });
}

function isSummaryMessage(message: ChatMessage): boolean {
  return message.role === "user" && message.content.startsWith(SUMMARY_START);
}

function lines(output: string, prefix: string): string[] {
  return output.split("\n").filter((line) => line.startsWith(prefix));
}

// Figures of this test (printed when it runs): 4 compactions, peak request ~5860 of the
// 8000-token window (the threshold is 6000), 30 / 30 facts retained in the last request.
Deno.test("powercode keeps 30 tasks of fact files under an 8000 window and retains every fact", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    contextWindow: 8000,
    handler: readFactsHandler(),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url, 8000));
  const facts = await writeFactFiles(project.workspace, 30, {
    bytes: (index) => 2000 + (index * 337) % 1000,
  });
  const stdin = facts.map((_, index) => `read ${factPath(index + 1)}\n`).join("");
  const result = await project.run([], { stdin, env: ENV });

  assertEquals(result.code, 0, result.stderr);
  assertEquals(
    lines(result.stdout, "facts/"),
    facts.map((fact, index) => `${factPath(index + 1)} says ${fact}.`),
  );
  assertEquals(server.requests.filter((request) => request.status !== 200), []);
  const peak = peakTokens(server.requests);
  assert(peak <= 8000, `peak request ${peak} tokens is over the 8000 window`);
  const compactions = summaries(server.requests);
  assert(compactions.length >= 1, "no compaction happened");
  assertEquals(misshapenSummaries(server.requests), []);
  assertEquals(lines(result.stdout, COMPRESSED).length, compactions.length);
  assertEquals(tasks(server.requests).length, 60);
  const last = server.requests.at(-1) ?? { body: undefined };
  const retained = facts.filter((fact) => factsIn(last).includes(fact));
  console.log(
    `long session: ${compactions.length} compactions, peak ${peak} / 8000 tokens, ` +
      `${retained.length} / 30 facts retained in the last request`,
  );
  assertEquals(retained, facts);
});

Deno.test("powercode -p finishes one task of 40 tool calls under an 8000 window (split turn)", async () => {
  const reads = Array.from(
    { length: 40 },
    (_, index) => toolCall("read_file", { path: factPath(index + 1, "pages") }),
  );
  await using server = await startFakeServer({
    model: "fake-model",
    contextWindow: 8000,
    handler: answerSummaries(sequence([...reads, text("Read all 40 pages.")])),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url, 8000));
  const facts = await writeFactFiles(project.workspace, 40, {
    folder: "pages",
    bytes: () => 1500,
  });
  const args = ["-p", "read pages/f01.txt to pages/f40.txt", "--max-steps", "50"];
  const result = await project.run(args, { env: ENV });

  assertEquals(result.code, 0, result.stderr);
  assertEquals(result.stdout, "Read all 40 pages.\n");
  assertEquals(server.requests.filter((request) => request.status !== 200), []);
  assert(peakTokens(server.requests) <= 8000, `peak ${peakTokens(server.requests)} tokens`);
  assertEquals(tasks(server.requests).length, 41);
  const compactions = summaries(server.requests);
  assert(compactions.length >= 1, "no compaction happened");
  assertEquals(misshapenSummaries(server.requests), []);
  assert(
    compactions.every((request) => lastUserText(request).includes("in the middle of a task")),
    "a summary request of the one long task is not marked as a split turn",
  );
  const last = server.requests.at(-1);
  assert(last?.body, "no last request");
  // The kept part starts inside the task: summary, then the assistant's next tool call.
  assertEquals(last.body.messages.slice(0, 3).map((message) => message.role), [
    "system",
    "user",
    "assistant",
  ]);
  assert(isSummaryMessage(last.body.messages[1]!), "the last request carries no summary");
  assertEquals(lastMessage(last)?.role, "tool");
  assertEquals(lines(result.stderr, "● read_file").length, 40);
  // Only the tool results carry these facts (the answers do not repeat them), so they reach
  // the last request through the summaries alone: nothing the summarizer was given was cut.
  const retained = facts.filter((fact) => factsIn(last).includes(fact));
  console.log(
    `one long task: ${compactions.length} compactions, peak ${
      peakTokens(server.requests)
    } / 8000 tokens, ${retained.length} / 40 facts retained`,
  );
  assertEquals(retained, facts);
});

Deno.test("powercode compacts and retries once when the real window is smaller than provider.json says", async () => {
  let reads = 0;
  await using server = await startFakeServer({
    model: "fake-model",
    contextWindow: 6000,
    handler: answerSummaries((request) => {
      if (lastUserText(request) === "and now a second task") return text("Second task answered.");
      if (request.body.messages.some(isSummaryMessage)) return text("Read enough notes.");
      return toolCall("read_file", { path: factPath(++reads, "notes") });
    }),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url, 16000));
  await writeFactFiles(project.workspace, 20, { folder: "notes", bytes: () => 2500 });
  const result = await project.run([], {
    stdin: "read the notes one by one\nand now a second task\n",
    env: ENV,
  });

  assertEquals(result.code, 0, result.stderr);
  assertEquals(lines(result.stdout, "Read enough notes."), ["Read enough notes."]);
  assertEquals(lines(result.stdout, "Second task answered."), ["Second task answered."]);
  const rejected = server.requests.filter((request) => request.status !== 200);
  assertEquals(rejected.length, 1);
  const overflow = rejected[0];
  assert(overflow !== undefined && overflow.promptTokens > 6000);
  assertMatch(overflow.rejection ?? "", /maximum context length is 6000 tokens/);
  assertEquals(lines(result.stdout, "⚠ The request is too long for the model").length, 1);
  assertStringIncludes(result.stdout, "compacting and retrying once");
  const at = server.requests.indexOf(overflow);
  const [summary, retry, next, ...rest] = server.requests.slice(at + 1);
  assertEquals(rest, []);
  // Asked for after the conversation up to the cut, which fits the real window.
  assert(summary && isSummaryRequest(summary), "no summary request");
  assertEquals(misshapenSummaries([overflow, summary]), []);
  assert(retry?.body && retry.status === 200, "the retry was not accepted");
  assert(retry.promptTokens <= 6000, `the retry has ${retry.promptTokens} tokens`);
  assertEquals(lastMessage(retry), lastMessage(overflow));
  assert(retry.body.messages.some(isSummaryMessage), "the retry carries no summary");
  assert(next?.body && next.status === 200, "the next task's request was not accepted");
  assert(next.promptTokens <= 6000, `the next task's request has ${next.promptTokens} tokens`);
  assertEquals(lastUserText(next), "and now a second task");
  assertEquals(lines(result.stdout, COMPRESSED).length, 1);
});

Deno.test("powercode keeps every message and stays usable when every summary request fails", async () => {
  const answer = readFactsHandler();
  await using server = await startFakeServer({
    model: "fake-model",
    contextWindow: 8000,
    handler: (request, index) =>
      isSummaryRequest(request)
        ? httpError(500, "summarizer down", { headers: { "retry-after-ms": "0" } })
        : answer(request, index),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url, 8000));
  const facts = await writeFactFiles(project.workspace, 12, { bytes: () => 2500 });
  const reads = facts.map((_, index) => `read ${factPath(index + 1)}`);
  const stdin = [...reads, "which facts did you see?"].map((task) => `${task}\n`).join("");
  const result = await project.run([], { stdin, env: ENV });

  assertEquals(result.code, 0, result.stderr);
  // Truncation spares the newest results, so each answer still finds its fact.
  assertEquals(
    lines(result.stdout, "facts/"),
    facts.map((fact, index) => `${factPath(index + 1)} says ${fact}.`),
  );
  assertEquals(result.stdout.trimEnd().split("\n").at(-1), "Nothing to read.");
  const failed = summaries(server.requests);
  assert(failed.length > 0, "no compaction was attempted");
  assertEquals(failed.filter((request) => request.status !== 500), []);
  const warnings = lines(result.stdout, "⚠ Context compression failed");
  assert(warnings.length > 0, "no warning was printed");
  assertEquals(
    warnings[0],
    "⚠ Context compression failed: The provider failed (500): summarizer down; earlier messages are kept and the request is truncated instead",
  );
  const sent = tasks(server.requests);
  assertEquals(sent.filter((request) => request.status !== 200), []);
  // Truncated requests stay under window - reserve (6000), leaving room for the answer.
  assert(peakTokens(sent) <= 6000, `peak request ${peakTokens(sent)} tokens`);
  const stored = await sessionMessages(project.dir);
  assertEquals(stored.length, 12 * 4 + 2);
  assertEquals(facts.filter((fact) => !JSON.stringify(stored).includes(fact)), []);
  const last = sent.at(-1)?.body?.messages ?? [];
  assertEquals(last.slice(-2), [
    { role: "assistant", content: `${factPath(12)} says ${factOf(12)}.` },
    { role: "user", content: "which facts did you see?" },
  ]);
});

Deno.test("powercode /context reports the context and /compact sends the focus text", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    contextWindow: 8000,
    handler: readFactsHandler(),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url, 8000));
  await writeFactFiles(project.workspace, 3, { bytes: () => 2500 });
  const stdin = [
    `read ${factPath(1)}`,
    `read ${factPath(2)}`,
    "/context",
    "/compact keep every FACT number",
    "/context",
    `read ${factPath(3)}`,
  ].map((line) => `${line}\n`).join("");
  const result = await project.run([], { stdin, env: ENV });

  assertEquals(result.code, 0, result.stderr);
  const before = server.requests[3];
  const usage = (before?.promptTokens ?? 0) + countTextTokens(`${factPath(2)} says ${factOf(2)}.`);
  assertStringIncludes(
    result.stdout,
    `Context: approx ${usage} tokens in use of 8000\n  compaction threshold: 6000 tokens\n` +
      "  messages in history: 8\n  summary: none\n",
  );
  const summary = server.requests[4];
  assert(summary && isSummaryRequest(summary), "no summary request");
  assertEquals(misshapenSummaries(server.requests), []);
  assertEquals(summary.status, 200);
  assert(lastUserText(summary).endsWith("\n\nFocus the summary on: keep every FACT number"));
  assertEquals(factsIn(summary), [factOf(1), factOf(2)]);
  const after = /approx \d+ → (\d+) tokens, 7 earlier messages summarized/
    .exec(result.stdout)?.[1];
  // A /compact is worded as asked for, never as "approaching limit" at a few percent.
  assert(
    new RegExp(`\nCompacting as asked \\(approx ${usage} / 8000 tokens, \\d+ %\\)\\.\\.\\.\n`)
      .test(result.stdout),
    result.stdout,
  );
  assert(!result.stdout.includes("Context approaching limit"), result.stdout);
  assertStringIncludes(
    result.stdout,
    `Context: approx ${after} tokens in use of 8000\n  compaction threshold: 6000 tokens\n` +
      "  messages in history: 8\n  summary: yes, covering messages before #7\n",
  );
  const next = server.requests[5];
  assert(next?.body && next.status === 200, "the next task's request was not accepted");
  assertEquals(lastUserText(next), `read ${factPath(3)}`);
  const carried = next.body.messages[1];
  assert(carried && isSummaryMessage(carried), "the next request carries no summary");
  assertEquals(carried.content?.match(/FACT-\d+/g), [factOf(1), factOf(2)]);
  assertEquals(server.requests.length, 7);
});
