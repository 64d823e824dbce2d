/**
 * End-to-end: crashes and interruptions. `deno task start` in a temp copy of the project
 * against the strict fake server: SIGKILL in the middle of a tool call or a streamed reply
 * leaves a session that `--continue` resumes with a valid request; on a real terminal
 * (tmux), Ctrl+C interrupts a task, kills the tool's processes and returns to the prompt,
 * Ctrl+C twice and Ctrl+D exit, and the status line and colours show.
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { INTERRUPTED_RESULT } from "../../src/agent/agent.ts";
import { MISSING_RESULT } from "../../src/context/working_memory.ts";
import { interruptedNote } from "../../src/agent/task_notes.ts";
import { childEnv, createTempProject, type TempProject } from "../support/project.ts";
import { text, toolCalls, withoutSystem } from "../support/scripts.ts";
import { isAlive, powercodePid, processesMatching, waitUntil } from "../support/processes.ts";
import {
  allSessionText,
  ENV,
  KEY,
  provider,
  type ScriptedServer,
  startScriptedServer,
} from "../support/sessions.ts";
import {
  PROMPT,
  screenLines,
  startInTmux,
  typeTask,
  waitForPrompt,
  withoutNoColor,
} from "../support/repl_pane.ts";
import { delay, startTmux } from "../support/tmux.ts";
import { tmuxTest } from "../support/programs.ts";

/** The dim line after each task: context use against the fake model's 32768-token window. */
/** The line after a task: the context use, then what the task and the session spent, as fits. */
const CONTEXT_LINE =
  /^context [\d.]+k? \/ 32\.8k tokens \(\d+%\)( · task [\d.]+k? tokens, \d+% cached)?( · session [\d.]+k? tokens, \d+% cached)?$/;
/** The status line while a task runs. */
const STATUS_LINE =
  /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] (\S+) · \d+s · Ctrl\+C to interrupt · [\d.]+k? \/ 32\.8k tokens \(\d+%\) · fake-model$/;

/** A `sleep` no other process runs, so pgrep finds exactly this test's processes. */
function uniqueSleep(): string {
  return `sleep 30.${crypto.getRandomValues(new Uint32Array(1))[0]}`;
}

/** A child's output, collected as it arrives. */
function collect(stream: ReadableStream<Uint8Array>): { text: () => string; done: Promise<void> } {
  let collected = "";
  const done = stream.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void (collected += chunk) }),
  ).catch(() => {});
  return { text: () => collected, done };
}

/**
 * Starts powercode reading piped stdin, types `task`, waits for `ready`, then kills the
 * powercode process (not just `deno task`) with SIGKILL and waits until it is gone.
 */
async function killDuring(
  project: TempProject,
  task: string,
  ready: (stdout: string) => boolean | Promise<boolean>,
): Promise<string> {
  const child = project.spawn([], { env: ENV });
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  const stdin = child.stdin.getWriter();
  try {
    await stdin.write(new TextEncoder().encode(`${task}\n`));
    const pid = await powercodePid(child.pid);
    await waitUntil(() => ready(stdout.text()), "the moment to kill powercode", {
      detail: () => `stdout: ${stdout.text()}\nstderr: ${stderr.text()}`,
    });
    Deno.kill(pid, "SIGKILL");
    assertEquals((await child.status).success, false);
    assertEquals(await isAlive(pid), false);
  } finally {
    await stdin.close().catch(() => {});
    await Promise.all([stdout.done, stderr.done]);
  }
  return stdout.text();
}

async function resumeWith(project: TempProject, scripted: ScriptedServer, task: string) {
  const requests = scripted.play([text("Picked up.")]);
  const result = await project.run(["--continue"], { stdin: `${task}\n`, env: ENV });
  assertEquals(result.code, 0, `${result.stdout}\n${result.stderr}`);
  assertStringIncludes(result.stdout, "Picked up.");
  assertEquals(requests().map((request) => [request.status, request.rejection]), [
    [200, undefined],
  ]);
  return { result, messages: withoutSystem(requests()[0]?.body?.messages) };
}

Deno.test("powercode --continue after SIGKILL during a tool call answers the cut call as interrupted", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const sleep = uniqueSleep();
  scripted.play([
    toolCalls([
      { id: "call_1", name: "bash", args: { command: "echo FACT-5" } },
      { id: "call_2", name: "bash", args: { command: sleep } },
      { id: "call_3", name: "read_file", args: { path: "never.txt" } },
    ]),
  ]);
  await killDuring(project, "run both", async () => (await processesMatching(sleep)).length > 0);
  await waitUntil(async () => (await processesMatching(sleep)).length === 0, "no sleep left", {
    detail: async () => (await processesMatching(sleep)).join("\n"),
  });

  const { messages } = await resumeWith(project, scripted, "what happened?");
  assertEquals(messages, [
    { role: "user", content: "run both" },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: "call_1",
          type: "function",
          function: { name: "bash", arguments: '{"command":"echo FACT-5"}' },
        },
        {
          id: "call_2",
          type: "function",
          function: { name: "bash", arguments: JSON.stringify({ command: sleep }) },
        },
        {
          id: "call_3",
          type: "function",
          function: { name: "read_file", arguments: '{"path":"never.txt"}' },
        },
      ],
    },
    { role: "tool", tool_call_id: "call_1", content: "FACT-5\nexit code 0" },
    { role: "tool", tool_call_id: "call_2", content: MISSING_RESULT },
    { role: "tool", tool_call_id: "call_3", content: MISSING_RESULT },
    { role: "user", content: "what happened?" },
  ]);
  assertEquals((await allSessionText(project.dir)).includes(KEY), false);
});

Deno.test("powercode --continue after SIGKILL during a streamed reply drops the partial reply", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const answer = "This answer streams slowly, piece by piece, and never ends here.";
  const streaming = scripted.play([
    toolCalls([{ id: "call_1", name: "bash", args: { command: "echo FACT-6" } }]),
    text(answer, { chunkSize: 4, chunkDelayMs: 500 }),
  ]);
  // On a pipe the answer is written once its reply is complete: kill while it streams, after
  // the server has sent its first pieces (500 ms apart).
  let streamingSince: number | undefined;
  const printed = await killDuring(project, "explain", () => {
    if (streaming()[1]?.status === 200) streamingSince ??= Date.now();
    return streamingSince !== undefined && Date.now() - streamingSince > 1200;
  });
  assert(!printed.includes(answer), "the reply should have been cut");
  await waitUntil(() => streaming()[1]?.clientAborted, "the server to see the client go");

  const { messages } = await resumeWith(project, scripted, "go on");
  assertEquals(messages, [
    { role: "user", content: "explain" },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: "call_1",
          type: "function",
          function: { name: "bash", arguments: '{"command":"echo FACT-6"}' },
        },
      ],
    },
    { role: "tool", tool_call_id: "call_1", content: "FACT-6\nexit code 0" },
    { role: "user", content: "go on" },
  ]);
});

tmuxTest(
  "powercode Ctrl+C during bash kills the command's processes and the session stays valid",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    const sleep = uniqueSleep();
    scripted.play([
      toolCalls([
        { id: "call_1", name: "bash", args: { command: sleep } },
        { id: "call_2", name: "bash", args: { command: "echo never" } },
      ]),
    ]);
    await using pane = await startInTmux(project, { env: { NO_COLOR: "1" } });
    await typeTask(pane, "wait a while");
    await pane.waitFor((screen) => screen.includes(`● bash ${sleep}`), "the bash call to start");
    await waitUntil(async () => (await processesMatching(sleep)).length > 0, "sleep to run");

    await pane.keys("C-c");
    const screen = await pane.waitFor(
      (screen) =>
        /^ {2}✗ interrupted · 0 lines · \d+\.\d s$/.test(screenLines(screen).at(-4) ?? "") &&
        screenLines(screen).at(-3) === "⏹ Interrupted; the session is kept, type the next task" &&
        CONTEXT_LINE.test(screenLines(screen).at(-2) ?? "") &&
        screenLines(screen).at(-1) === PROMPT.trim(),
      "the interrupted line, the context line and the prompt",
    );
    assertEquals(screen.includes("Ctrl+C to interrupt"), false, "the status line must go");
    assertEquals(screen.includes("echo never"), false, "the second call must not run");
    await waitUntil(async () => (await processesMatching(sleep)).length === 0, "no sleep left", {
      timeoutMs: 10_000,
      detail: async () => (await processesMatching(sleep)).join("\n"),
    });

    const next = scripted.play([text("Fine.")]);
    await typeTask(pane, "and now?");
    await pane.waitFor((screen) => screen.includes("Fine."), "the next answer");
    await waitForPrompt(pane, "the prompt after the next answer");
    assertEquals(next().map((request) => request.status), [200]);
    const killed = "interrupted by the user; the command and all its processes were killed";
    assertEquals(withoutSystem(next()[0]?.body?.messages), [
      { role: "user", content: "wait a while" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: "bash", arguments: JSON.stringify({ command: sleep }) },
          },
          {
            id: "call_2",
            type: "function",
            function: { name: "bash", arguments: '{"command":"echo never"}' },
          },
        ],
      },
      {
        role: "tool",
        tool_call_id: "call_1",
        content: `(no output)\n${killed}\n${INTERRUPTED_RESULT}`,
      },
      { role: "tool", tool_call_id: "call_2", content: INTERRUPTED_RESULT },
      { role: "user", content: `${interruptedNote()}\n\nand now?` },
    ]);
  },
);

tmuxTest(
  "powercode Ctrl+C at an empty prompt hints, Up recalls history, a second Ctrl+C exits",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    scripted.play([text("Hello.")]);
    await using pane = await startInTmux(project, { env: { NO_COLOR: "1" } });
    await typeTask(pane, "say hello");
    await pane.waitFor((screen) => screen.includes("Hello."), "the answer");
    await waitForPrompt(pane, "the prompt after the answer");

    await pane.keys("Up");
    await pane.waitFor((screen) => screenLines(screen).at(-1) === `${PROMPT}say hello`, "history");
    await pane.keys("C-c");
    await waitForPrompt(pane, "Ctrl+C to clear the typed line");
    const hint = "(press Ctrl+C again to exit, or type /help)";
    assertEquals(
      (await pane.screen()).includes(hint),
      false,
      "clearing a line is not a press at an empty prompt",
    );

    // One press may reach powercode twice (terminal and `deno task`); the hint must survive it.
    await delay(400);
    await pane.keys("C-c");
    await pane.waitFor(
      (screen) => screenLines(screen).slice(-2).join("\n") === `${hint}\n${PROMPT.trim()}`,
      "the hint",
    );
    await delay(400);
    assertEquals((await pane.end()).dead, false, "one Ctrl+C at an empty prompt must not exit");
    await pane.keys("C-c");
    await waitUntil(async () => (await pane.end()).dead, "powercode to exit");
    assertEquals(await pane.end(), { dead: true, status: 0 });
  },
);

tmuxTest(
  "powercode shows a status line while it works and colours on a terminal; Ctrl+C stops a stream",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    const answer = "Streaming slowly: one, two, three, four, five, six, seven, eight, nine.";
    const held = scripted.hold(text(answer, { chunkSize: 4, chunkDelayMs: 500 }));
    const first = scripted.play([held.step]);
    await using pane = await startInTmux(project);
    await typeTask(pane, "count slowly");
    const status = (screen: string) => STATUS_LINE.exec(screenLines(screen).at(-1) ?? "")?.[1];
    await pane.waitFor((screen) => status(screen) === "thinking", "the status line");
    held.release();
    const streaming = await pane.waitFor(
      (screen) => screen.includes("Streaming") && status(screen) === "writing",
      "the first token above the status line",
    );
    // The input stays between the answer and the status line while the task runs (issue 19.8).
    assertEquals(screenLines(streaming).at(-3)?.startsWith("Streaming"), true, streaming);
    assertEquals(screenLines(streaming).at(-2), PROMPT.trim(), streaming);
    await pane.keys("C-c");
    const stopped = await pane.waitFor(
      (screen) => screenLines(screen).at(-1) === PROMPT.trim() && screen.includes("⏹ Interrupted"),
      "the interrupted line after the stream",
    );
    assertEquals(stopped.includes("Ctrl+C to interrupt"), false, "the status line must go");
    assertStringIncludes(await pane.screen({ escapes: true }), "\x1b[33m⏹ Interrupted");
    assert(!(await pane.screen()).includes(answer), "the stream should have been cut");
    await waitUntil(() => first()[0]?.clientAborted, "the server to see the stream aborted");

    const next = scripted.play([text("Done.")]);
    await typeTask(pane, "next");
    await pane.waitFor((screen) => screen.includes("Done."), "the next answer");
    // The partial reply the user saw is kept; the note tells the model the task was stopped.
    const messages = withoutSystem(next()[0]?.body?.messages);
    assertEquals(messages.length, 3);
    assertEquals(messages[0], { role: "user", content: "count slowly" });
    assert(answer.startsWith(String(messages[1]?.content)) && messages[1]?.role === "assistant");
    assertEquals(messages[2], { role: "user", content: `${interruptedNote()}\n\nnext` });
  },
);

tmuxTest("powercode on a terminal with NO_COLOR prints no colours, and Ctrl+D exits", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  scripted.play([
    toolCalls([{ id: "call_1", name: "bash", args: { command: "echo hi" } }]),
    text("Said hi."),
  ]);
  await using pane = await startInTmux(project, { env: { NO_COLOR: "1" } });
  await typeTask(pane, "say hi");
  await pane.waitFor((screen) => screen.includes("Said hi."), "the answer");
  await waitForPrompt(pane, "the prompt after the answer");
  const screen = await pane.screen({ escapes: true });
  assert(
    /● bash echo hi\n {2}✓ exit 0 · 1 line · \d+\.\d s\n {4}hi\nSaid hi\./.test(screen),
    screen,
  );
  assertEquals(screen.includes("\x1b["), false, JSON.stringify(screen));
  await pane.keys("C-d");
  await waitUntil(async () => (await pane.end()).dead, "powercode to exit on Ctrl+D");
  assertEquals(await pane.end(), { dead: true, status: 0 });
});

tmuxTest(
  "powercode with stdout piped from a terminal shows neither spinner nor colours",
  async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    const held = scripted.hold(text("Piped answer."));
    const requests = scripted.play([held.step]);
    await using pane = await startTmux({
      cwd: project.dir,
      command: "deno task --quiet start | cat",
      env: { ...withoutNoColor(childEnv(ENV)), TERM: "xterm-256color" },
    });
    await waitForPrompt(pane, "the first prompt");
    await typeTask(pane, "answer through a pipe");
    await waitUntil(() => requests().length === 1, "the request");
    // The spinner would be drawn before the request was sent; give the pipe a moment to pass it on.
    const until = Date.now() + 1000;
    while (Date.now() < until) {
      assertEquals((await pane.screen()).includes("thinking"), false, "spinner on a pipe");
      await delay(100);
    }
    held.release();
    await pane.waitFor((screen) => screen.includes("Piped answer."), "the answer");
    const screen = await pane.screen({ escapes: true });
    assertEquals(screen.includes("\x1b["), false, JSON.stringify(screen));
  },
);
