/**
 * End-to-end: sessions on disk. `deno task start` (the real permission set) in a temp copy
 * of the project against the strict fake server: resuming with --continue/--resume sends
 * exactly the request an uninterrupted run sends, a torn last line is skipped, /clear and
 * /sessions work, and the API key never reaches a session file.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { createTempProject, type TempProject } from "../support/project.ts";
import { type ScriptStep, text, toolCalls } from "../support/scripts.ts";
import {
  allSessionText,
  ENV,
  KEY,
  provider,
  type ScriptedServer,
  sessionIds,
  sessionLines,
  sessionPath,
  startScriptedServer,
} from "../support/sessions.ts";

/**
 * The session records (everything after the header) of session `id`, workspace snapshot
 * ids numbered in order of appearance: they name scans, which differ from run to run.
 */
async function records(project: TempProject, id: string): Promise<Record<string, unknown>[]> {
  const trees = new Map<unknown, string>();
  return (await sessionLines(project.dir, id)).slice(1).map((record) => {
    // A miss's byte is known only to the run that sent the request before (a resumed run keeps
    // the hashes alone); the rest of the request record must be equal.
    if (record.type === "request" && isMiss(record.miss)) {
      const { byte: _, ...miss } = record.miss;
      return { ...record, miss };
    }
    if (!("tree" in record)) return record;
    if (!trees.has(record.tree)) trees.set(record.tree, `tree ${trees.size + 1}`);
    return { ...record, tree: trees.get(record.tree) };
  });
}

function isMiss(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

async function runOk(project: TempProject, args: string[], stdin: string) {
  const result = await project.run(args, { stdin, env: ENV });
  assertEquals(result.code, 0, `${result.stdout}\n${result.stderr}`);
  return result;
}

/** A script scenario: earlier tasks (each one line), then the task B sent after resuming. */
interface Scenario {
  contextWindow: number;
  keepRecentTokens?: number;
  /** The whole workspace before each run of the A tasks. */
  files: Record<string, string>;
  tasksA: string[];
  stepsA: ScriptStep[];
  taskB: string;
  stepsB: ScriptStep[];
  /** Compaction records expected after the A tasks and after B. */
  compactions: [number, number];
}

/**
 * Runs the A tasks and B in one process, then A and B in separate processes (resuming
 * with --continue, and with --resume ID while a newer session exists), and asserts that
 * every request of B and every session record match the uninterrupted run exactly.
 */
/** Runs one task ("first task" → "Hello.") and returns the session it left on disk. */
async function firstSession(
  project: TempProject,
  scripted: ScriptedServer,
): Promise<{ id: string; path: string }> {
  scripted.play([text("Hello.")]);
  await runOk(project, [], "first task\n");
  const [id] = await sessionIds(project.dir);
  assert(id);
  return { id, path: sessionPath(project.dir, id) };
}

async function checkResumeEquality(scenario: Scenario): Promise<void> {
  await using scripted = await startScriptedServer({ contextWindow: scenario.contextWindow });
  await using project = await createTempProject();
  const { contextWindow, keepRecentTokens } = scenario;
  await project.writeProvider(provider(scripted.server.url, {
    contextWindow,
    ...(keepRecentTokens ? { keepRecentTokens } : {}),
  }));
  const stdinA = scenario.tasksA.map((task) => `${task}\n`).join("");
  // Every run of the A tasks starts from the same workspace, so tool results repeat exactly.
  const runA = async (stdin: string) => {
    await Deno.remove(project.workspace, { recursive: true });
    await Deno.mkdir(project.workspace);
    for (const [path, content] of Object.entries(scenario.files)) {
      await Deno.writeTextFile(`${project.workspace}/${path}`, content);
    }
    await runOk(project, [], stdin);
  };

  const whole = scripted.play([...scenario.stepsA, ...scenario.stepsB]);
  await runA(`${stdinA}${scenario.taskB}\n`);
  const wholeRaw = whole().map((request) => request.raw);
  const [uninterrupted] = await sessionIds(project.dir);
  assert(uninterrupted);
  assertEquals(whole().map((request) => request.status), whole().map(() => 200));

  const onlyA = scripted.play(scenario.stepsA);
  await runA(stdinA);
  const countA = onlyA().length;
  assertEquals(onlyA().map((request) => request.raw), wholeRaw.slice(0, countA));
  const expected = wholeRaw.slice(countA);
  const older = (await sessionIds(project.dir)).at(-1);
  scripted.play(scenario.stepsA);
  await runA(stdinA);
  const newer = (await sessionIds(project.dir)).at(-1);
  assert(older && newer && older !== newer && older !== uninterrupted);
  const compactionsIn = async (id: string) =>
    (await records(project, id)).filter((record) => record.type === "compaction").length;
  assertEquals(await compactionsIn(newer), scenario.compactions[0]);

  const resumes: [string[], string][] = [[["--continue"], newer], [["--resume", older], older]];
  for (const [args, id] of resumes) {
    const resumed = scripted.play(scenario.stepsB);
    const result = await runOk(project, args, `${scenario.taskB}\n`);
    assertMatch(result.stdout, new RegExp(`^Resumed session ${id} \\(\\d+ messages\\)\n`));
    assertEquals(resumed().map((request) => request.raw), expected, `after ${args.join(" ")}`);
    assertEquals(await records(project, id), await records(project, uninterrupted));
    assertEquals(await compactionsIn(id), scenario.compactions[1]);
  }
  assertEquals((await sessionIds(project.dir)).length, 3, "resuming must not start a new file");
  assertEquals((await allSessionText(project.dir)).includes(KEY), false, "key in a session file");
}

Deno.test("powercode --continue and --resume send the request an uninterrupted run sends", async () => {
  await checkResumeEquality({
    contextWindow: 32768,
    files: {},
    tasksA: ["A: note FACT-1 and FACT-2 in notes.txt"],
    stepsA: [
      toolCalls([
        { id: "call_a1", name: "write_file", args: { path: "notes.txt", content: "FACT-1\n" } },
        { id: "call_a2", name: "bash", args: { command: "echo FACT-2 >> notes.txt; env" } },
      ]),
      text("Noted FACT-1 and FACT-2."),
    ],
    taskB: "B: what is in notes.txt?",
    stepsB: [
      toolCalls([{ id: "call_b1", name: "read_file", args: { path: "notes.txt" } }]),
      text("FACT-1 and FACT-2."),
    ],
    compactions: [0, 0],
  });
});

/** About `kilobytes` KB of numbered prose lines mentioning `fact`. */
function prose(name: string, fact: string, kilobytes: number): string {
  const lines = [];
  for (let i = 1; lines.join("\n").length < kilobytes * 1024; i++) {
    lines.push(`${name} line ${i}: the quick brown fox jumps over the lazy dog near ${fact}.`);
  }
  return `${lines.join("\n")}\n`;
}

Deno.test("powercode restores compaction and usage exactly when resuming after a compaction", async () => {
  const read = (id: string, path: string) => toolCalls([{ id, name: "read_file", args: { path } }]);
  await checkResumeEquality({
    // 6000 before the built-in tools grew by about 1250 tokens (grep, glob, ls, fetch, jobs, task).
    contextWindow: 7250,
    files: {
      "one.txt": prose("one", "FACT-11", 7),
      "two.txt": prose("two", "FACT-22", 7),
      "three.txt": prose("three", "FACT-33", 7),
    },
    tasksA: ["A1: read one.txt", "A2: read two.txt"],
    stepsA: [read("call_1", "one.txt"), text("Read one."), read("call_2", "two.txt"), text("Two.")],
    taskB: "B: read three.txt",
    stepsB: [read("call_3", "three.txt"), text("Three.")],
    compactions: [1, 2],
  });
});

Deno.test("powercode restores the usage snapshot exactly: the next task compacts as it would have", async () => {
  // Base64 costs a provider about 1.4 times what the estimate says, so the first request of
  // B compacts only when the usage reported for A's last reply is restored. (The window is
  // 3600 plus what the built-in tools' definitions take (about 2500 tokens by the provider's
  // count, with bash's need_hosts and need_dirs), over the 75 % the reserve leaves; it passes
  // from about 5650 to 6600.)
  const bytes = Array.from({ length: 2700 }, (_, i) => (i * 131 + 7) % 256);
  const base64 = btoa(String.fromCharCode(...bytes));
  await checkResumeEquality({
    contextWindow: 6100,
    keepRecentTokens: 200,
    files: { "blob.txt": `${base64}\nFACT-44\n` },
    tasksA: ["A: read blob.txt"],
    stepsA: [
      toolCalls([{ id: "call_1", name: "read_file", args: { path: "blob.txt" } }]),
      text("Read."),
    ],
    taskB: "B: and now?",
    stepsB: [text("FACT-44.")],
    compactions: [0, 1],
  });
});

Deno.test("powercode --continue skips a torn last line with a warning and goes on", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const { id, path } = await firstSession(project, scripted);
  const intact = await Deno.readTextFile(path);
  const torn = JSON.stringify({ type: "message", message: { role: "user", content: "lost" } });
  await Deno.writeTextFile(path, torn.slice(0, 30), { append: true });

  const resumed = scripted.play([text("Hello again.")]);
  const result = await runOk(project, ["--continue"], "second task\n");
  assertStringIncludes(
    result.stdout,
    `⚠ Skipped a torn last line in ".powercode/sessions/${id}.jsonl" (crash while writing?)\n` +
      `Resumed session ${id} (2 messages)\n`,
  );
  assertStringIncludes(result.stdout, "Hello again.");
  assertEquals(resumed()[0]?.status, 200);
  assertEquals(resumed()[0]?.body?.messages.slice(1), [
    { role: "user", content: "first task" },
    { role: "assistant", content: "Hello." },
    { role: "user", content: "second task" },
  ]);
  const repaired = await Deno.readTextFile(path);
  assert(repaired.startsWith(intact), "the intact lines were changed");
  // Each task: its message, the request sent for it (the cache contract's record), the reply.
  assertEquals((await records(project, id)).map((record) => record.type), [
    "task_start",
    "message",
    "request",
    "message",
    "usage",
    "task_end",
    "task_start",
    "message",
    "request",
    "message",
    "usage",
    "task_end",
  ]);
});

Deno.test("powercode --continue refuses a damaged session and --resume an unknown id, in one line, exit 2", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const { id, path } = await firstSession(project, scripted);
  const lines = (await Deno.readTextFile(path)).split("\n");
  lines[1] = "{not json";
  await Deno.writeTextFile(path, lines.join("\n"));
  const before = await Deno.readTextFile(path);
  const result = await project.run(["--continue"], { stdin: "second task\n", env: ENV });
  assertEquals(result.code, 2);
  assertEquals(
    result.stderr,
    `powercode: Cannot load session ".powercode/sessions/${id}.jsonl": line 2 is not valid JSON; ` +
      "run powercode without --continue/--resume for a new session\n",
  );
  assertEquals(await Deno.readTextFile(path), before, "a damaged file must be left as it was");
  const unknown = await project.run(["--resume", "20260101-000000-abcdef"], { env: ENV });
  assertEquals(unknown.code, 2);
  assertEquals(
    unknown.stderr,
    'powercode: Cannot resume session "20260101-000000-abcdef": no such session in ' +
      ".powercode/sessions; run powercode without --continue/--resume for a new session\n",
  );
  assertEquals(scripted.server.requests.length, 1, "no request without a session");
});

Deno.test("powercode /clear starts a new session file and /sessions lists id, time and first task", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const requests = scripted.play([text("One."), text("Two.")]);
  const result = await runOk(
    project,
    [],
    "first   task\n/clear\nsecond task\n/sessions\n/help\n",
  );
  const ids = await sessionIds(project.dir);
  assertEquals(ids.length, 2, result.stdout);
  const [old, fresh] = ids as [string, string];
  const messagesOf = async (id: string) =>
    (await records(project, id)).flatMap((record) => record.type === "message" ? [record] : []);
  assertEquals((await messagesOf(old)).length, 2);
  assertEquals((await messagesOf(fresh)).length, 2);
  assertEquals(requests()[1]?.body?.messages.slice(1), [{ role: "user", content: "second task" }]);
  assertStringIncludes(
    result.stdout,
    "Started a new session; the previous one stays on disk (/sessions lists it)",
  );
  const time = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.source;
  const header = / {3}ID {22}LAST USED \(UTC[+-]\d{2}:\d{2}\) {2}MSGS {2}FIRST TASK/.source;
  assertMatch(
    result.stdout,
    new RegExp(
      `\n${header}\n \\* ${fresh}  ${time} {10}2  second task\n   ${old}  ${time} {10}2  first task\n`,
    ),
  );
  for (const line of result.stdout.split("\n")) {
    assert(line.length <= 80, `wider than 80 columns: ${JSON.stringify(line)}`);
  }
  for (const command of ["/help", "/context", "/compact", "/clear", "/sessions", "/exit"]) {
    assertStringIncludes(result.stdout, `  ${command}`);
  }
  const first = (await sessionLines(project.dir, fresh))[0];
  assertEquals(Object.keys(first ?? {}).sort(), [
    "created",
    "id",
    "model",
    "roots",
    "type",
    "version",
  ]);
  assertEquals({ ...first, created: "" }, {
    type: "session",
    version: 3,
    id: fresh,
    created: "",
    model: "fake-model",
    roots: [await Deno.realPath(project.workspace)],
  });
});

Deno.test("powercode prints no colour codes when stdout is not a terminal, even without NO_COLOR", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  scripted.play([
    toolCalls([{ id: "call_1", name: "bash", args: { command: "exit 3" } }]),
    text("Done."),
  ]);
  // An empty NO_COLOR counts as unset (no-color.org); the harness sets it by default.
  const result = await project.run([], {
    stdin: "fail a command\n/nope\n",
    env: { ...ENV, NO_COLOR: "" },
  });
  assertEquals(result.code, 0, result.stderr);
  assertStringIncludes(
    result.stdout,
    '● bash exit 3\n  ✗ exit 3\nDone.\nUnknown command "/nope": type /help for the list\n',
  );
  assertEquals(result.stdout.includes("\x1b"), false, JSON.stringify(result.stdout));
  assertEquals(result.stderr.includes("\x1b"), false, JSON.stringify(result.stderr));
});
