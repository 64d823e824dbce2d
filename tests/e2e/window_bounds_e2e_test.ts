/**
 * End-to-end (issue 34.3): the estimate covers everything a request carries, and what one
 * message brings in is bounded by the window, through `deno task start` against the strict
 * fake server (which rejects any request over its window): MCP tools configured since the
 * last run are counted after `--continue`; an `@path` attachment too large for the window is
 * refused with one line saying how much fits.
 *
 * @module
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import {
  answerSummaries,
  isSummaryRequest,
  sequence,
  text,
  toolCalls,
} from "../support/scripts.ts";
import { createTempProject } from "../support/project.ts";
import { ENV, provider } from "../support/sessions.ts";
import { startFakeMcpHttp } from "../support/fake_mcp_http.ts";
import { writeMcpConfig } from "../support/mcp.ts";

const WINDOW = 10240;

/** Prose of about `words` words, numbered so that no two lines are alike. */
function prose(words: number, tag: string): string {
  const lines: string[] = [];
  for (let index = 0; lines.join(" ").split(" ").length < words; index++) {
    lines.push(`${tag} ${index}: the parser reads each record and checks its fields in order.`);
  }
  return lines.join("\n");
}

/** MCP tools whose definitions take about 3700 tokens together. */
const WIDE_TOOLS = Array.from({ length: 16 }, (_, index) => ({
  name: `report_${index}`,
  description: prose(150, `report ${index} note`),
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
}));

Deno.test("--continue with MCP tools configured since the last run: /context counts them and no request passes the window", async () => {
  await using mcp = startFakeMcpHttp({ tools: WIDE_TOOLS });
  await using server = await startFakeServer({
    contextWindow: WINDOW,
    handler: answerSummaries(sequence([
      toolCalls(
        ["a", "b", "c"].map((name) => ({ name: "read_file", args: { path: `${name}.txt` } })),
      ),
      text("Read them."),
      text("Again."),
    ])),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url, { contextWindow: WINDOW }));
  // About 4100 tokens of history: the snapshot after it is near the compaction threshold of a
  // 10k window (the built-in tools take about 2000 tokens).
  for (const name of ["a", "b", "c"]) {
    await Deno.writeTextFile(`${project.workspace}/${name}.txt`, prose(1100, name));
  }
  const first = await project.run(["-p", "read the three files"], { env: ENV });
  assertEquals(first.code, 0, first.stderr);

  await Deno.mkdir(`${project.dir}/.powercode`, { recursive: true });
  await writeMcpConfig(`${project.dir}/.powercode/mcp.json`, { wide: { url: mcp.url } });
  const resumed = await project.run(["-c"], { stdin: "/context\nagain\n", env: ENV });
  assertEquals(resumed.code, 0, resumed.stderr);
  const rejected = server.requests.filter((request) => request.status !== 200);
  assertEquals(rejected.map((request) => request.rejection), []);
  const steps = server.requests.filter((request) => !isSummaryRequest(request));
  const next = steps.at(-1);
  assert(next?.body?.tools?.some((tool) => tool.function.name === "mcp__wide__report_0"));
  // /context counted the new tools: the conversation as it stood no longer fit the window
  // (the snapshot alone said about the last run's request), so the task compacted first.
  const said = Number(/Context: approx (\d+) tokens in use/.exec(resumed.stdout)?.[1]);
  assert(said > WINDOW, `/context said ${said}`);
  assert(server.requests.some(isSummaryRequest), "the resumed task compacted first");
});

Deno.test("an @path attachment too large for the window is refused with one line saying how much fits; nothing is sent", async () => {
  await using server = await startFakeServer({
    contextWindow: WINDOW,
    handler: sequence([text("Small one read.")]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url, { contextWindow: WINDOW }));
  // 40 KB: under the 50 KB cut of one attachment, several times what an 8k window holds.
  await Deno.writeTextFile(`${project.workspace}/big.txt`, prose(7000, "big").slice(0, 40_000));
  await Deno.writeTextFile(`${project.workspace}/small.txt`, "alpha\nbeta\n");
  const result = await project.run([], {
    stdin: "summarize @big.txt\nsummarize @small.txt\n",
    env: ENV,
  });
  assertEquals(result.code, 1, result.stderr);
  const lines = result.stdout.split("\n");
  assertMatch(
    lines[0] ?? "",
    /^✗ Cannot send the message: with "big\.txt" attached it is about \d+ tokens, more than fits the context window \(at most \d+ tokens for one message\); attach less \(read_file reads a file in parts\)$/,
  );
  assertEquals(lines.slice(1), ["  attached small.txt (2 lines)", "Small one read.", ""]);
  assertEquals(server.requests.length, 1, "only the small attachment was sent");
  assert(server.requests[0]!.promptTokens <= WINDOW);
});
