/**
 * End-to-end (issue 34.3): every token the provider served is counted, through
 * `deno task start` against the strict fake server: a reply interrupted while it streams
 * counts in the task's JSON usage, in `/cost` and in the budget; each retry of a dropped
 * stream is checked against the budget before it is sent and counted after.
 *
 * @module
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { type RecordedRequest, startFakeServer } from "../support/fake_server.ts";
import { drop, sequence, text } from "../support/scripts.ts";
import { createTempProject } from "../support/project.ts";
import { powercodePid, waitUntil } from "../support/processes.ts";
import { ENV, provider } from "../support/sessions.ts";
import { MIN_REPLY_TOKENS } from "../../src/context/spending.ts";

/** An answer that streams one short piece every 2 s: it is still streaming when interrupted. */
const SLOW = text("word ".repeat(400), { chunkSize: 20, chunkDelayMs: 2000 });

/** Reads a child's stdout as it comes; `text()` is everything so far. */
function collect(stream: ReadableStream<Uint8Array>): { text: () => string; done: Promise<void> } {
  let all = "";
  const decoder = new TextDecoder();
  const done = stream.pipeTo(
    new WritableStream({ write: (chunk) => void (all += decoder.decode(chunk, { stream: true })) }),
  );
  return { text: () => all, done };
}

function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
}

/** The prompt tokens the fake counted over `requests` (the provider's own count). */
function promptTokens(requests: readonly RecordedRequest[]): number {
  return requests.reduce((sum, request) => sum + request.promptTokens, 0);
}

Deno.test("-p: a reply interrupted while it streams counts in the JSON usage (estimated, since no usage came)", async () => {
  await using server = await startFakeServer({ handler: sequence([SLOW]) });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const child = project.spawn(["-p", "write a lot", "--output-format", "stream-json"], {
    env: ENV,
  });
  await child.stdin.close();
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  await waitUntil(() => stdout.text().includes('"type":"text_delta"'), "the first streamed text");
  Deno.kill(await powercodePid(child.pid), "SIGINT");
  const { code } = await child.status;
  await Promise.all([stdout.done, stderr.done]);
  assertEquals(code, 130, stderr.text());
  const result = jsonLines(stdout.text()).at(-1) ?? {};
  assertEquals(result.status, "interrupted");
  const usage = result.usage as { prompt: number; completion: number; total: number };
  // The provider took the whole prompt and streamed part of the answer: at powercode's
  // estimate, which errs high (never under the fake's real count).
  const served = promptTokens(server.requests);
  assert(usage.prompt >= served && usage.prompt <= served * 1.3, JSON.stringify({ usage, served }));
  assert(usage.completion > 0, JSON.stringify(usage));
  assertEquals(usage.total, usage.prompt + usage.completion);
});

Deno.test("REPL: an interrupted reply shows in /cost and counts against --max-tokens, so the next task is refused", async () => {
  await using server = await startFakeServer({
    handler: sequence([text("Probed."), SLOW, text("Never sent.")]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const probe = await project.run(["-p", "write a lot"], { env: ENV });
  assertEquals(probe.code, 0, probe.stderr);
  // Room for one request of this size with the shortest reply allowance, not for two.
  const limit = Math.round(promptTokens(server.requests) * 1.5) + MIN_REPLY_TOKENS;
  const child = project.spawn(["--max-tokens", String(limit)], { env: ENV });
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  const input = child.stdin.getWriter();
  await input.write(new TextEncoder().encode("write a lot\n"));
  await waitUntil(() => server.requests.length === 2, "the task's request", {
    detail: () => stderr.text(),
  });
  Deno.kill(await powercodePid(child.pid), "SIGINT");
  await waitUntil(() => server.requests[1]?.clientAborted, "the interruption", {
    detail: () => `${stdout.text()}\n${stderr.text()}`,
  });
  await input.write(new TextEncoder().encode("/cost\nwrite more\n"));
  await input.close();
  await child.status;
  await Promise.all([stdout.done, stderr.done]);
  assertEquals(server.requests.length, 2, "the task after the interrupted one was not sent");
  const out = `${stdout.text()}\n${stderr.text()}`;
  assertMatch(out, /Session: +1 request, \d+ tokens: prompt \d+/);
  const spent = Number(/this session has spent (\d+) of its (\d+) tokens/.exec(out)?.[1]);
  assert(spent >= server.requests[1]!.promptTokens, out);
});

Deno.test("-p: a stream dropped four times stops at the budget (exit 4); the provider sees no request beyond it", async () => {
  const partial = text("Partial answer that never ends.", { chunkSize: 4 });
  await using server = await startFakeServer({
    handler: sequence([
      text("Probed."),
      ...Array.from({ length: 4 }, () => drop(partial, 3)),
      text("Finally."),
    ]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const probe = await project.run(["-p", "answer me"], { env: ENV });
  assertEquals(probe.code, 0, probe.stderr);
  const first = promptTokens(server.requests);
  // Room for two attempts with the reply allowance, not for three.
  const limit = Math.round(first * 2.6) + 4096;
  const run = await project.run(
    ["-p", "answer me", "--max-tokens", String(limit), "--output-format", "json"],
    { env: ENV },
  );
  const sent = server.requests.slice(1);
  assertEquals(run.code, 4, `${run.stderr}\nrequests: ${sent.length}`);
  const result = jsonLines(run.stdout).at(-1) ?? {};
  assertEquals(result.status, "budget");
  assertMatch(
    String(result.error),
    /^Budget reached: this session has spent \d+ of its \d+ tokens/,
  );
  assert(sent.length < 5, `${sent.length} attempts were sent`);
  // What the provider took never passed the budget, even with a whole reply allowance.
  assert(promptTokens(sent) + 4096 <= limit, JSON.stringify({ sent: promptTokens(sent), limit }));
  // Every attempt the provider served is in the usage (estimated, erring high).
  const usage = result.usage as { prompt: number; completion: number };
  assert(usage.prompt >= promptTokens(sent), JSON.stringify({ usage, sent: promptTokens(sent) }));
  assert(usage.completion > 0, JSON.stringify(usage));
});
