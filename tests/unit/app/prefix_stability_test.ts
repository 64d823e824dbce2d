/**
 * Prompt-cache stability: a long session through the real agent, compactor, chat client and
 * read_file tool against the strict fake server. Between compactions every request must
 * start with the previous request's messages, byte for byte, and each summary request must
 * start with the conversation the model last saw.
 */
import { assert, assertEquals } from "@std/assert";
import { assemble } from "../../../src/app/assemble.ts";
import type { AgentEvent } from "../../../src/core/events.ts";
import { type RecordedRequest, startFakeServer } from "../../support/fake_server.ts";
import { factPath, factProseText, readFactsHandler, writeFactFiles } from "../../support/facts.ts";
import { httpError, isSummaryRequest, lastUserText } from "../../support/scripts.ts";

const FAILING_TASK = "read facts/f99.txt";

/** The raw wire messages and tools of a request, as the server received them. */
function wire(request: RecordedRequest): { tools: string; messages: string[] } {
  const raw = request.raw as { tools?: unknown; messages: unknown[] };
  return { tools: JSON.stringify(raw.tools), messages: raw.messages.map((m) => JSON.stringify(m)) };
}

function startsWith(request: RecordedRequest, earlier: RecordedRequest): boolean {
  const [now, before] = [wire(request), wire(earlier)];
  return now.tools === before.tools &&
    before.messages.every((message, index) => now.messages[index] === message);
}

Deno.test("by default each summary request starts with the conversation the model saw, and every request extends the previous one between compactions", async () => {
  await checkPrefixStability(undefined);
});

Deno.test('with "summaryInConversation": false the summary request has no tools, and every request extends the previous one between compactions', async () => {
  await checkPrefixStability(false);
});

/** `summaryInConversation` as provider.json sets it; undefined leaves it out (the default). */
async function checkPrefixStability(summaryInConversation: boolean | undefined): Promise<void> {
  const facts = readFactsHandler();
  await using server = await startFakeServer({
    contextWindow: 16_000,
    // One task fails without a reply, leaving two user messages in a row in history.
    handler: (request, index) =>
      lastUserText(request).endsWith(FAILING_TASK)
        ? httpError(400, "The request was rejected")
        : facts(request, index),
  });
  const workspace = await Deno.makeTempDir({ prefix: "powercode_prefix_" });
  try {
    await writeFactFiles(workspace, 30, { bytes: () => 5000, text: factProseText });
    const events: AgentEvent[] = [];
    const { agent } = await assemble({
      config: {
        baseURL: server.url,
        apiKey: "k",
        model: "m",
        contextWindow: 16_000,
        maxOutputTokens: 4000,
        ...(summaryInConversation === undefined ? {} : { summaryInConversation }),
      },
      workspaceDir: workspace,
      maxSteps: 5,
      onEvent: (event) => events.push(event),
      bash: { unsandboxedBash: false, probe: () => Promise.resolve(false) },
      chat: { maxRetries: 0 },
    });
    const tasks = Array.from({ length: 30 }, (_, index) => `read ${factPath(index + 1)}`);
    tasks.splice(5, 0, FAILING_TASK);
    const results = [];
    for (const task of tasks) results.push(await agent.run(task, new AbortController().signal));
    assertEquals(results.filter((result) => result.status !== "done").length, 1);

    const summaries = server.requests.filter((request) => isSummaryRequest(request));
    assert(summaries.length >= 2, `${summaries.length} compactions; the test needs two or more`);
    assertEquals(events.filter((event) => event.type === "warning"), []);
    let previous: RecordedRequest | undefined;
    let compacted = false;
    for (const request of server.requests) {
      if (isSummaryRequest(request)) {
        if (summaryInConversation !== false) {
          // Asked for right after the conversation the model last saw, the one before it.
          assert(previous && wire(request).messages.length > 2, "no task request before a summary");
          const prefix = wire(request).messages.slice(0, -1);
          assertEquals(prefix, wire(previous).messages.slice(0, prefix.length));
        } else {
          assertEquals(wire(request).tools, undefined, "the spec's summary request has no tools");
        }
        compacted = true;
        continue;
      }
      if (previous && !compacted) {
        assert(
          startsWith(request, previous),
          `request ${server.requests.indexOf(request)} does not start with the one before it`,
        );
      }
      previous = request;
      compacted = false;
    }
    assertEquals(server.requests.filter((request) => request.status !== 200).length, 1);
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
}
