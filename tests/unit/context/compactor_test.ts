import { assertEquals, assertRejects } from "@std/assert";
import { ChatError } from "../../../src/model/chat_model.ts";
import { Compactor } from "../../../src/context/compactor.ts";
import { Session } from "../../../src/session/session.ts";
import { calls, result, sessionOf } from "../../support/messages.ts";
import { ScriptedModel } from "../../support/scripted_model.ts";
import { pathsOf } from "../../support/tool_paths.ts";
import { compactionThreshold, resolveCompactionSettings } from "../../../src/context/settings.ts";
import { estimateRequestTokens } from "../../../src/context/tokens.ts";
import { SUMMARY_PREFIX } from "../../../src/context/working_memory.ts";
import type { Message } from "../../../src/core/messages.ts";
import type { CompactionEvent } from "../../../src/core/events.ts";

const OVERHEAD = { system: "You are powercode.", tools: [] };

/** Runs one long task of `steps` tool calls the way the agent loop does. */
async function runLongTask(compactor: Compactor, session: Session, steps: number) {
  const sizes: number[] = [];
  session.append({ role: "user", content: "Read every file and report" });
  for (let step = 1; step <= steps; step++) {
    const memory = await compactor.prepare(session, OVERHEAD);
    const size = estimateRequestTokens({ ...OVERHEAD, messages: memory });
    sizes.push(size);
    session.append(calls(`c${step}`));
    session.recordUsage({ totalTokens: size + 20, historyLength: session.history.length });
    session.append(result(`c${step}`, `file ${step}: ` + "x".repeat(1200)));
  }
  return sizes;
}

Deno.test("Compactor.prepare() lets one task of 40 tool calls finish in an 8000 window (summaries in conversation, the default)", async () => {
  const settings = resolveCompactionSettings({ contextWindow: 8000 });
  const model = new ScriptedModel([]);
  const events: CompactionEvent[] = [];
  const compactor = new Compactor({
    model,
    settings,
    onEvent: (event) => events.push(event),
  });
  const session = new Session({ pathsOf });
  const sizes = await runLongTask(compactor, session, 40);
  assertEquals(sizes.every((size) => size <= compactionThreshold(settings)), true);
  assertEquals(session.compaction?.compactedUntil, 53);
  assertEquals(session.history.length, 81);
  assertEquals(events.filter((event) => event.type === "warning"), []);
  assertEquals(
    events.filter((event) => event.type === "compaction_end").length,
    model.requests.length,
  );
  const memory = compactor.workingMemory(session);
  assertEquals([memory[0]?.role, memory[1]?.role], ["user", "assistant"]);
  // The lists are as of the last compaction, after step 30.
  const files = Array.from({ length: 30 }, (_, index) => `c${index + 1}.md`).join(", ");
  const summary = session.compaction?.summary ?? "";
  assertEquals(summary.endsWith(`---\nFiles read: ${files}\nFiles modified: none`), true);
  // The second summary is asked for after the conversation the model saw, which begins
  // with the first summary.
  const last = model.requests.at(-1)?.messages ?? [];
  assertEquals(last[0]?.content.startsWith(SUMMARY_PREFIX), true);
  assertEquals(
    last[0]?.content.includes("## User Goal\nread files\n## Next Steps\ncontinue"),
    true,
  );
  assertEquals(last.at(-1)?.content.includes("Update that summary with everything after it"), true);
});

const READ_TOOLS = [{ name: "read_file", description: "Read a file", parameters: {} }];
const READ_OVERHEAD = { system: "You are powercode.", tools: READ_TOOLS };

/**
 * Runs one task of file reads until the compactor asks for its first summary; returns the
 * last request the model saw before that.
 */
async function readUntilSummary(compactor: Compactor, session: Session, model: ScriptedModel) {
  session.append({ role: "user", content: "Read every file and report" });
  let sent: Message[] = [];
  for (let step = 1; model.requests.length === 0; step++) {
    const memory = await compactor.prepare(session, READ_OVERHEAD);
    if (model.requests.length > 0) break;
    sent = memory;
    session.append(calls(`c${step}`));
    const size = estimateRequestTokens({ ...READ_OVERHEAD, messages: memory });
    session.recordUsage({ totalTokens: size + 20, historyLength: session.history.length });
    session.append(result(`c${step}`, `file ${step}: ` + "x".repeat(1200)));
  }
  return sent;
}

Deno.test("Compactor by default asks for the summary right after the request the model last saw", async () => {
  const settings = resolveCompactionSettings({ contextWindow: 8000 });
  const model = new ScriptedModel([]);
  const compactor = new Compactor({ model, settings });
  const session = new Session();
  const sent = await readUntilSummary(compactor, session, model);
  const overhead = READ_OVERHEAD;
  const tools = READ_TOOLS;
  const request = model.requests[0]!;
  assertEquals([request.system, request.tools], [overhead.system, tools]);
  const prefix = request.messages.slice(0, -1);
  assertEquals(prefix, sent.slice(0, prefix.length));
  assertEquals(prefix.length, session.compaction?.compactedUntil);
  assertEquals(request.messages.at(-1)?.content.startsWith("Stop here. Do not continue"), true);
});

Deno.test('Compactor with "summaryInConversation": false asks with the folded messages serialized, without tools', async () => {
  const settings = resolveCompactionSettings({ contextWindow: 8000 });
  const model = new ScriptedModel([]);
  const compactor = new Compactor({ model, settings, summaryInConversation: false });
  const session = new Session();
  await readUntilSummary(compactor, session, model);
  const request = model.requests[0]!;
  assertEquals(Object.keys(request), ["system", "messages"]);
  assertEquals(request.system.includes("summar"), true);
  assertEquals(request.messages.length, 1);
  assertEquals(
    request.messages[0]?.content.includes(`[Tool result]: file 1: ${"x".repeat(1200)}`),
    true,
  );
  assertEquals(session.compaction?.compactedUntil !== undefined, true);
});

Deno.test("Compactor sends the folded messages serialized when the model saw a result cut", async () => {
  const settings = resolveCompactionSettings({ contextWindow: 16_000 });
  const model = new ScriptedModel([]);
  const compactor = new Compactor({ model, settings });
  const session = new Session();
  session.append({ role: "user", content: "Read the logs" });
  for (let step = 1; step <= 8; step++) {
    session.append(calls(`c${step}`));
    session.append(result(`c${step}`, `log ${step} ` + "entry ".repeat(1500)));
  }
  await compactor.prepare(session, OVERHEAD);
  const request = model.requests[0];
  // The summarizer gets the whole results the working memory cut to 8000 characters.
  assertEquals(Object.keys(request ?? {}), ["system", "messages"]);
  assertEquals(request?.messages.length, 1);
  assertEquals(
    request?.messages[0]?.content.includes(`[Tool result]: log 1 ${"entry ".repeat(1500)}`),
    true,
  );
});

function longTask(steps: number): Session {
  const session = new Session({ pathsOf });
  session.append({ role: "user", content: "Read every file and report" });
  for (let step = 1; step <= steps; step++) {
    session.append(calls(`c${step}`));
    session.append(result(`c${step}`, `file ${step}: ` + "x".repeat(1200)));
  }
  return session;
}

Deno.test("Compactor.prepareRequest() keeps the state and truncates when the summary fails", async () => {
  const settings = resolveCompactionSettings({ contextWindow: 8000 });
  const model = new ScriptedModel([new ChatError("server", "Server error 500")]);
  const events: CompactionEvent[] = [];
  const compactor = new Compactor({ model, settings, onEvent: (event) => events.push(event) });
  const session = longTask(20);
  const estimate = estimateRequestTokens({ ...OVERHEAD, messages: session.history });
  const prepared = await compactor.prepareRequest(session, OVERHEAD);
  assertEquals(prepared.type, "shortened");
  const memory = prepared.type === "shortened" ? prepared.messages : [];
  assertEquals(events, [
    {
      type: "compaction_start",
      reason: "automatic",
      estimatedTokens: estimate,
      contextWindow: 8000,
    },
    {
      type: "warning",
      message:
        "Context compression failed: Server error 500; earlier messages are kept and the request is truncated instead",
    },
    {
      type: "warning",
      message:
        `Context still too long (approx ${estimate} / 6000 tokens) and compaction failed: cut older tool outputs to 500 chars in this request only; the session history keeps everything`,
    },
  ]);
  assertEquals(session.compaction, undefined);
  assertEquals(session.history.length, 41);
  assertEquals(memory.length, 41);
  assertEquals(estimateRequestTokens({ ...OVERHEAD, messages: memory }) <= 6000, true);
  assertEquals(memory[2]?.content.includes("[... 708 characters omitted ...]"), true);
  assertEquals(memory[40], session.history[40]);
});

Deno.test("Compactor.prepareRequest() sends whole a request the provider counted under the threshold", async () => {
  // The issue-13 case: the text estimate of the whole request is over the threshold, the
  // usage-anchored one (what the provider counted, plus the newest result) is not.
  const settings = resolveCompactionSettings({ contextWindow: 8000 });
  const model = new ScriptedModel([]);
  const events: CompactionEvent[] = [];
  const compactor = new Compactor({ model, settings, onEvent: (event) => events.push(event) });
  const session = longTask(20);
  const whole = estimateRequestTokens({ ...OVERHEAD, messages: session.history });
  assertEquals(whole > compactionThreshold(settings), true);
  session.recordUsage({ totalTokens: 5000, historyLength: 40 });
  assertEquals(await compactor.prepareRequest(session, OVERHEAD), {
    type: "working_memory",
    messages: compactor.workingMemory(session),
    estimatedTokens: compactor.status(session, OVERHEAD).estimatedTokens,
  });
  assertEquals([model.requests.length, events.length], [0, 0]);
  // One more result over the threshold: compacted, not cut.
  session.append(calls("c21"));
  session.append(result("c21", "x".repeat(3000)));
  const next = await compactor.prepareRequest(session, OVERHEAD);
  assertEquals([next.type, model.requests.length], ["working_memory", 1]);
  assertEquals(events.filter((event) => event.type === "warning"), []);
});

Deno.test("Compactor.prepare() waits 6 messages after a failed summary before trying again", async () => {
  const settings = resolveCompactionSettings({ contextWindow: 8000 });
  const model = new ScriptedModel([new ChatError("server", "Server error 500")]);
  const compactor = new Compactor({ model, settings });
  const session = longTask(20);
  await compactor.prepare(session, OVERHEAD);
  for (let step = 1; step <= 3; step++) {
    session.append(calls(`late${step}`));
    session.append(result(`late${step}`));
    await compactor.prepare(session, OVERHEAD);
    assertEquals(model.requests.length, step === 3 ? 2 : 1, `after ${step * 2} more messages`);
  }
  assertEquals(session.compaction?.compactedUntil !== undefined, true);
});

Deno.test("Compactor.prepare() retries a summary that overflows once with half the budget", async () => {
  const settings = resolveCompactionSettings({ contextWindow: 8000 });
  const model = new ScriptedModel([new ChatError("context_overflow", "too long"), "## User Goal"]);
  const compactor = new Compactor({ model, settings });
  const session = longTask(20);
  await compactor.prepare(session, OVERHEAD);
  const sizes = model.requests.map((request) => estimateRequestTokens(request));
  // The conversation up to the cut is over the threshold: both requests are serialized.
  assertEquals(model.requests.map((request) => "tools" in request), [false, false]);
  assertEquals(sizes.length, 2);
  assertEquals(sizes[1]! <= 3000 && sizes[0]! > 3000, true);
  assertEquals(
    session.compaction?.summary.startsWith("## User Goal\n\n---\nFiles read: c1.md"),
    true,
  );
});

Deno.test("Compactor.prepare() lets an abort propagate and keeps the state", async () => {
  const settings = resolveCompactionSettings({ contextWindow: 8000 });
  const model = new ScriptedModel([new ChatError("aborted", "Request aborted")]);
  const compactor = new Compactor({ model, settings });
  const session = longTask(20);
  await assertRejects(() => compactor.prepare(session, OVERHEAD), ChatError, "Request aborted");
  assertEquals(session.compaction, undefined);
});

Deno.test("Compactor.compact() folds all but the newest step, asking with the focus after the conversation", async () => {
  const settings = resolveCompactionSettings({ contextWindow: 128_000 });
  const model = new ScriptedModel(["## User Goal\nfix notes"]);
  const events: CompactionEvent[] = [];
  const compactor = new Compactor({
    model,
    settings,
    onEvent: (event) => events.push(event),
  });
  const session = sessionOf([
    { role: "user", content: "Fix notes" },
    calls("notes"),
    result("notes"),
    { role: "assistant", content: "Done", toolCalls: [] },
    { role: "user", content: "Now the tests" },
    { role: "assistant", content: "ok", toolCalls: [] },
  ]);
  const before = compactor.workingMemory(session);
  const outcome = await compactor.compact(session, OVERHEAD, { focus: "the notes file" });
  assertEquals(outcome.type === "compacted" && [outcome.compactedUntil, outcome.messagesFolded], [
    5,
    5,
  ]);
  const request = model.requests[0];
  assertEquals(request?.messages.slice(0, -1), before.slice(0, 5));
  assertEquals(
    request?.messages.at(-1)?.content.endsWith("Focus the summary on: the notes file"),
    true,
  );
  assertEquals(compactor.status(session, OVERHEAD), {
    estimatedTokens: estimateRequestTokens({
      ...OVERHEAD,
      messages: compactor.workingMemory(session),
    }),
    contextWindow: 128_000,
    threshold: 111_616,
    messages: 6,
    summary: true,
    compactedUntil: 5,
  });
  assertEquals(await compactor.compact(session, OVERHEAD), { type: "nothing_to_compact" });
  assertEquals(events.at(-1), {
    type: "warning",
    message: "Nothing to compact: the working memory holds only the latest step",
  });
});
