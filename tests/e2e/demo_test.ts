/**
 * `deno task demo` (src/demo_compaction.ts) in a temp copy of the project, with the real
 * permission set, against the strict fake server.
 */
import { estimateTextTokens } from "../../src/context/tokens.ts";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import type { Message } from "../../src/core/messages.ts";
import { summaryMessage } from "../../src/context/working_memory.ts";
import { startFakeServer } from "../support/fake_server.ts";
import { httpError, sequence, text } from "../support/scripts.ts";
import { createTempProject } from "../support/project.ts";

const SUMMARY = [
  "## User Goal",
  "Read context-demo/large-context.txt in blocks of 40 lines.",
  "## Completed",
  "Read blocks 1-10; the code word of block 3 is cobalt.",
].join("\n");
const FILE_LISTS = "\n\n---\nFiles read: context-demo/large-context.txt\nFiles modified: none";
const ANSWER = "I read blocks 1 to 14 of the file; the code word of block 3 is cobalt.";
const QUESTION = "Which blocks of the file did you read, and what is the code word of block " +
  "3? Answer from the conversation so far, without calling tools.";

interface Snapshot {
  estimatedTokens: number;
  compactedUntil: number;
  messages: Message[];
}

function provider(url: string): Record<string, unknown> {
  return { baseURL: url, apiKey: "sk-demo", model: "fake-model", contextWindow: 16000 };
}

async function readSnapshot(path: string): Promise<Snapshot> {
  return JSON.parse(await Deno.readTextFile(path));
}

async function size(path: string): Promise<number> {
  return (await Deno.stat(path)).size;
}

Deno.test("deno task demo compacts 14 read_file rounds and answers from the summary", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    contextWindow: 16000,
    handler: sequence([text(SUMMARY), text(ANSWER)]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const result = await project.run([], { task: "demo" });
  assertEquals(result.code, 0, result.stderr);
  assertEquals(result.stderr, "");

  const dir = `${project.workspace}/context-demo`;
  const large = await Deno.readTextFile(`${dir}/large-context.txt`);
  const lines = large.trimEnd().split("\n");
  assertEquals(lines.length, 14 * 40);
  assert(lines.every((line) => line.startsWith("context demo block ")));
  const blocks = new Set(lines.map((line) => Number(line.split(" ")[3])));
  assertEquals([...blocks], Array.from({ length: 14 }, (_, index) => index + 1));
  assertStringIncludes(large, "context demo block 3 line 1: the code word is cobalt\n");

  const before = await readSnapshot(`${dir}/context-before.json`);
  const after = await readSnapshot(`${dir}/context-after.json`);
  const summary = await Deno.readTextFile(`${dir}/compressed-summary.md`);
  assertEquals(summary, `${SUMMARY}${FILE_LISTS}\n`);
  assertEquals(before.messages.length, 1 + 14 * 2);
  assertEquals(before.compactedUntil, 0);
  assert(before.estimatedTokens > 12000, `before: ${before.estimatedTokens} tokens`);
  assertEquals(before.messages[2]?.role, "tool");
  assertStringIncludes(before.messages[6]?.content ?? "", "the code word is cobalt");
  assert(after.compactedUntil > 0 && after.compactedUntil < before.messages.length);
  assert(after.messages.length < before.messages.length);
  assert(after.estimatedTokens < 12000, `after: ${after.estimatedTokens} tokens`);
  assertEquals(after.messages, [
    summaryMessage(`${SUMMARY}${FILE_LISTS}`),
    ...before.messages.slice(after.compactedUntil),
  ]);

  const sizes = {
    large: await size(`${dir}/large-context.txt`),
    before: await size(`${dir}/context-before.json`),
    after: await size(`${dir}/context-after.json`),
    summary: await size(`${dir}/compressed-summary.md`),
  };
  const summaryTokens = estimateTextTokens(summary.trimEnd());
  assertEquals(
    result.stdout,
    [
      "powercode context demo · fake-model · window 16000, reserve 4000, keep recent 4000 tokens",
      `large-context.txt: 14 blocks of 40 lines, ${sizes.large} bytes`,
      `Before: 29 messages, approx ${before.estimatedTokens} tokens (threshold 12000); ` +
      `context-before.json ${sizes.before} bytes`,
      `Context approaching limit (approx ${before.estimatedTokens} / 16000 tokens), ` +
      "compressing earlier messages...",
      `✓ Context compression complete: approx ${before.estimatedTokens} → ` +
      `${after.estimatedTokens} tokens, ${after.compactedUntil} earlier messages summarized`,
      `After: ${after.messages.length} messages, approx ${after.estimatedTokens} tokens, ` +
      `compactedUntil ${after.compactedUntil}; context-after.json ${sizes.after} bytes`,
      `Summary: approx ${summaryTokens} tokens; compressed-summary.md ${sizes.summary} bytes`,
      "Files in workspace/context-demo/",
      "",
      `Question: ${QUESTION}`,
      "Answer:",
      ANSWER,
      "",
    ].join("\n"),
  );

  assertEquals(server.requests.map((request) => request.status), [200, 200]);
  const [summaryRequest, question] = server.requests;
  assert(summaryRequest?.body && question?.body);
  assert(!Object.hasOwn(summaryRequest.raw as object, "tools"), "summary request has tools");
  const folded = summaryRequest.body.messages[1]?.content ?? "";
  assertStringIncludes(
    folded,
    "[Tool call] read_file(path=context-demo/large-context.txt, offset=81, limit=40)",
  );
  assertStringIncludes(folded, "context demo block 3 line 1: the code word is cobalt");
  assertEquals(question.body.tools?.map((tool) => tool.function.name), ["read_file"]);
  const sent = question.body.messages;
  assertEquals(sent.length, 1 + after.messages.length + 1);
  assertEquals(sent[0]?.role, "system");
  assertEquals(sent[1], { role: "user", content: after.messages[0]?.content ?? "" });
  assertEquals(sent.at(-1), { role: "user", content: QUESTION });
});

Deno.test("deno task demo exits 2 with one line when the provider file is missing", async () => {
  await using project = await createTempProject();
  const result = await project.run([], {
    task: "demo",
    env: { POWERCODE_PROVIDER: ".powercode/missing.json" },
  });
  assertEquals(result.code, 2);
  assertEquals(
    result.stderr,
    'powercode demo: Cannot read provider file ".powercode/missing.json": file not found; ' +
      "create it (see README.md) or pass --provider FILE\n",
  );
  assertEquals(result.stdout, "");
});

Deno.test("deno task demo exits 1 with one line when the summary request fails", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    handler: () => httpError(401, "Incorrect API key provided"),
  });
  await using project = await createTempProject();
  await Deno.mkdir(`${project.dir}/.powercode`);
  await Deno.writeTextFile(
    `${project.dir}/.powercode/demo.json`,
    JSON.stringify(provider(server.url)),
  );
  const result = await project.run(["--provider", ".powercode/demo.json"], { task: "demo" });
  assertEquals(result.code, 1, result.stdout);
  assertMatch(
    result.stderr,
    /^powercode demo: Cannot compact the demo session: [^\n]*401[^\n]*\n$/,
  );
  assertEquals(server.requests.length, 1);
});

Deno.test("deno task demo exits 1 with one line when the question fails", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    handler: sequence([text(SUMMARY), httpError(400, "Unsupported parameter")]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const result = await project.run([], { task: "demo" });
  assertEquals(result.code, 1, result.stdout);
  assertEquals(
    result.stderr,
    "powercode demo: The provider rejected the request (400): Unsupported parameter\n",
  );
  assertEquals(server.requests.length, 2);
});
