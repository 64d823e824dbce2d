/**
 * End-to-end (issue 36.15): with no `maxOutputTokens`, a budget bounds the reply allowance
 * instead of refusing a request whose 4096-token allowance does not fit: the request goes out
 * with what is left as its output cap, in the field the profile uses, so a budget means
 * "stop when spent", not "refuse to start". Through `deno task start` and the fake server.
 *
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { type RecordedRequest, startFakeServer } from "../support/fake_server.ts";
import { sequence, text, toolCall } from "../support/scripts.ts";
import { createTempProject } from "../support/project.ts";
import { ENV, provider } from "../support/sessions.ts";
import { MIN_REPLY_TOKENS, OUTPUT_ALLOWANCE_TOKENS } from "../../src/context/spending.ts";

/** The output cap a request carried on the wire, in `field`. */
function cap(request: RecordedRequest | undefined, field: string): unknown {
  return (request?.raw as Record<string, unknown> | undefined)?.[field];
}

function lastJson(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}");
}

Deno.test("--max-tokens: the step the 4096-token allowance would not fit goes out capped to what is left, and the task finishes", async () => {
  const steps = [toolCall("read_file", { path: "notes.txt" }), text("Read.")];
  await using server = await startFakeServer({ handler: sequence([steps[0]!, ...steps]) });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  await Deno.writeTextFile(`${project.workspace}/notes.txt`, "a note\n".repeat(50));
  // One step alone measures the first request, as the budget test that refuses does.
  const probe = await project.run(["-p", "read the notes", "--max-steps", "1"], { env: ENV });
  assertEquals(probe.code, 3, probe.stderr);
  const first = server.requests[0]?.promptTokens ?? 0;
  // The limit with which the second request used to be refused (exit 4).
  const limit = Math.round(first * 1.5) + OUTPUT_ALLOWANCE_TOKENS;
  const run = await project.run(
    ["-p", "read the notes", "--max-tokens", String(limit), "--output-format", "json"],
    { env: ENV },
  );
  assertEquals(run.code, 0, run.stderr);
  const result = lastJson(run.stdout);
  assertEquals([result.status, result.result], ["done", "Read."]);
  const [one, two] = server.requests.slice(1);
  assertEquals(cap(one, "max_tokens"), OUTPUT_ALLOWANCE_TOKENS);
  const second = Number(cap(two, "max_tokens"));
  assert(
    second >= MIN_REPLY_TOKENS && second < OUTPUT_ALLOWANCE_TOKENS,
    `the second request's cap: ${second}`,
  );
  // What the provider could have served stays within the limit.
  const usage = result.usage as { total: number };
  const served = (one?.promptTokens ?? 0) + (two?.promptTokens ?? 0);
  assert(usage.total <= limit, JSON.stringify({ usage, limit }));
  assert(served + second <= limit, JSON.stringify({ served, second, limit }));
});

Deno.test("--max-cost: a request the allowance would price out runs capped, in max_completion_tokens where the profile says so; a reply cut there says why", async () => {
  const cut = text("Hi.", { finishReason: "length" });
  await using server = await startFakeServer({ handler: sequence([text("Probed."), cut]) });
  await using project = await createTempProject();
  // A thousand dollars per million tokens: a tenth of a cent each.
  const pricing = { input: 1000, output: 1000 };
  const compat = { outputLimitField: "max_completion_tokens" };
  await project.writeProvider(provider(server.url, { pricing, compat }));
  const probe = await project.run(["-p", "hi"], { env: ENV });
  assertEquals(probe.code, 0, probe.stderr);
  const prompt = server.requests[0]?.promptTokens ?? 0;
  // Enough for the prompt and about 1000 reply tokens, not for 4096.
  const dollars = (prompt * 1.5 + 1000) / 1000;
  const run = await project.run(["-p", "hi", "--max-cost", dollars.toFixed(4)], { env: ENV });
  assertEquals([run.code, run.stdout], [0, "Hi.\n"], run.stderr);
  const sent = server.requests[1];
  assertEquals(cap(sent, "max_tokens"), undefined);
  const limit = Number(cap(sent, "max_completion_tokens"));
  assert(limit >= MIN_REPLY_TOKENS && limit < OUTPUT_ALLOWANCE_TOKENS, `cap ${limit}`);
  assert(((sent?.promptTokens ?? 0) + limit) / 1000 <= dollars, `cap ${limit}, $${dollars}`);
  assertStringIncludes(
    run.stderr,
    'The reply was cut at the output cap the budget left (finish_reason "length"); raise ' +
      "--max-tokens or --max-cost",
  );
});
