/**
 * End-to-end: the todo tool through the real program (`deno task start` on piped stdin)
 * against the strict fake server: TODO.md written as a checklist and shown, bad lists
 * refused, the list shown and sent after a kill, kept across `--continue` and a compaction.
 *
 * @module
 */
import { assertEquals, assertStringIncludes } from "@std/assert";
import type { RecordedRequest } from "../support/fake_server.ts";
import { createTempProject, type TempProject } from "../support/project.ts";
import { isAlive, powercodePid, waitUntil } from "../support/processes.ts";
import { isSummaryRequest, text, toolCall } from "../support/scripts.ts";
import { ENV, provider, startScriptedServer } from "../support/sessions.ts";
import { planOnNote, unfinishedTodoNote } from "../../src/agent/task_notes.ts";

const LIST = [
  { text: "Read the parser", status: "done" },
  { text: "Write the test", status: "in_progress" },
  { text: "Run the suite", status: "pending" },
];
const TODO_MD = "# TODO\n\n- [x] Read the parser\n- [ ] Write the test (in progress)\n" +
  "- [ ] Run the suite\n";
const SHOWN = "● todo 1/3 · Write the test\n  ✓ 1/3 done\n    ✓ Read the parser\n" +
  "    ▸ Write the test\n    ○ Run the suite\n";

function toolResults(request: RecordedRequest | undefined): unknown[] {
  return (request?.body?.messages ?? []).filter((m) => m.role === "tool").map((m) => m.content);
}

function lastUser(request: RecordedRequest | undefined): unknown {
  return request?.body?.messages.findLast((message) => message.role === "user")?.content;
}

Deno.test("a todo call writes TODO.md as a checklist and shows it, also in plan mode; bad lists get an error result", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const requests = scripted.play([
    toolCall("todo", { items: LIST }),
    toolCall("todo", { items: LIST }),
    toolCall("todo", { items: [] }),
    toolCall("todo", { items: [LIST[1], { text: "Ship", status: "doing" }] }),
    toolCall("todo", { items: [LIST[1], LIST[1]] }),
    text("Listed."),
  ]);
  const result = await project.run([], { stdin: "/plan\nlist the steps\n", env: ENV });
  assertEquals(result.code, 0, result.stderr);
  assertEquals(await Deno.readTextFile(`${project.workspace}/TODO.md`), TODO_MD);
  assertStringIncludes(result.stdout, SHOWN);
  assertStringIncludes(
    result.stdout,
    "● todo 1/3 · Write the test\n  ✓ 1/3 done, unchanged\n● todo",
  );
  assertEquals(toolResults(requests().at(-1)), [
    "Wrote TODO.md: 1 of 3 done; in progress: Write the test",
    "TODO.md is unchanged: 1 of 3 done; in progress: Write the test",
    'Error: Cannot run todo: argument "items" is empty: send the whole list, at least one ' +
    'step (mark finished steps "done" instead of leaving them out)',
    'Error: Cannot run todo: item 2 has unknown status "doing": use "pending", ' +
    '"in_progress", "done"',
    'Error: Cannot run todo: items 1 and 2 are both "in_progress": only one step may be in ' +
    "progress at a time",
  ]);
});

/**
 * Starts powercode on piped stdin, sends `task`, waits for `ready`, then kills the powercode
 * process (not just `deno task`) with SIGKILL.
 */
async function killAfter(
  project: TempProject,
  task: string,
  ready: () => Promise<boolean>,
): Promise<void> {
  const child = project.spawn([], { env: ENV });
  const stdin = child.stdin.getWriter();
  const output = Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
  ]);
  try {
    await stdin.write(new TextEncoder().encode(`${task}\n`));
    const pid = await powercodePid(child.pid);
    await waitUntil(ready, "the moment to kill powercode");
    Deno.kill(pid, "SIGKILL");
    assertEquals((await child.status).success, false);
    assertEquals(await isAlive(pid), false);
  } finally {
    await stdin.close().catch(() => {});
    await output;
  }
}

Deno.test("a new session after a kill shows TODO.md's unchecked steps and its first request mentions them", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const held = scripted.hold(text("Never seen."));
  scripted.play([toolCall("todo", { items: LIST }), held.step]);
  const todoFile = `${project.workspace}/TODO.md`;
  await killAfter(
    project,
    "start the work",
    async () => await Deno.readTextFile(todoFile).then((text) => text === TODO_MD, () => false),
  );
  held.release();

  const requests = scripted.play([text("Picking up the test.")]);
  const result = await project.run([], { stdin: "go on\n", env: ENV });
  assertEquals(result.code, 0, result.stderr);
  assertStringIncludes(
    result.stdout,
    "TODO.md holds unfinished work from an earlier session:\n    ▸ Write the test\n" +
      "    ○ Run the suite\n",
  );
  const unfinished = [
    { text: "Write the test", status: "in_progress" as const },
    { text: "Run the suite", status: "pending" as const },
  ];
  assertEquals(lastUser(requests()[0]), `${unfinishedTodoNote(unfinished)}\n\ngo on`);
  assertStringIncludes(String(lastUser(requests()[0])), "- [ ] Write the test (in progress)");
});

Deno.test("--continue restores the list, and after a forced /compact the next request still holds it, with plan mode", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  scripted.play([toolCall("todo", { items: LIST }), text("Listed.")]);
  const first = await project.run([], { stdin: "make a list\n", env: ENV });
  assertEquals(first.code, 0, first.stderr);

  const requests = scripted.play([text("Second."), text("Third.")]);
  const resumed = await project.run(["-c"], {
    stdin: "second\n/plan\n/compact\nthird\n",
    env: ENV,
  });
  assertEquals(resumed.code, 0, resumed.stderr);
  const tasks = requests().filter((request) => !isSummaryRequest(request));
  assertEquals(requests().length - tasks.length, 1, "one summary");
  const third = tasks[1]?.body?.messages ?? [];
  const summary = String(third[1]?.content);
  assertStringIncludes(
    summary,
    "\nTodo list (TODO.md, kept with the todo tool):\n- [x] Read the parser\n" +
      "- [ ] Write the test (in progress)\n- [ ] Run the suite\n" +
      "Plan mode is on: only PLAN.md may be changed, and bash runs read-only.",
  );
  assertEquals(
    third.some((message) => message.role === "assistant" && message.tool_calls !== undefined),
    false,
    "the todo call itself was folded into the summary",
  );
  assertEquals(lastUser(tasks[1]), `${planOnNote()}\n\nthird`);
});
