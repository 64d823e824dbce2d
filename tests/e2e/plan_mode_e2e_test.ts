/**
 * End-to-end: plan mode through the real program (`deno task start`, piped stdin and -p)
 * against the strict fake server: writes refused but PLAN.md, bash with a read-only
 * workspace, the model told with the task, the request prefix byte-equal in both modes, and
 * `--continue` restoring the mode.
 *
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import type { ChatMessage, RecordedRequest } from "../support/fake_server.ts";
import { createTempProject } from "../support/project.ts";
import { text, toolCall, toolCalls } from "../support/scripts.ts";
import {
  ENV,
  provider,
  sessionIds,
  sessionLines,
  startScriptedServer,
} from "../support/sessions.ts";
import { planOffNote, planOnNote } from "../../src/agent/task_notes.ts";

const WRITE_REFUSED = "Error: Cannot run write_file: plan mode is on, so only PLAN.md at the " +
  "workspace root may change; write the plan to PLAN.md and ask the user to leave plan mode " +
  "(/plan off) to make changes";

/** The tool results a request carries, in order. */
function toolResults(request: RecordedRequest | undefined): string[] {
  return (request?.body?.messages ?? []).flatMap((message: ChatMessage) =>
    message.role === "tool" && typeof message.content === "string" ? [message.content] : []
  );
}

/** The last user message of a request. */
function lastUser(request: RecordedRequest | undefined): unknown {
  return request?.body?.messages.findLast((message) => message.role === "user")?.content;
}

/** The part of a request that must not change with plan mode: the tools and the system prompt. */
function prefix(request: RecordedRequest | undefined): string {
  const raw = request?.raw as { tools?: unknown; messages?: unknown[] } | undefined;
  return JSON.stringify({ tools: raw?.tools, system: raw?.messages?.[0] });
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("plan mode refuses write_file and edit_file but PLAN.md, bash cannot write, /plan off lifts it, and the request prefix stays byte-equal", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  await Deno.writeTextFile(`${project.workspace}/a.txt`, "one\n");
  const plan = "# Plan\n\n1. Create x.txt\n";
  const requests = scripted.play([
    text("Looked."),
    toolCalls([
      { name: "write_file", args: { path: "x.txt", content: "planned\n" } },
      { name: "edit_file", args: { path: "a.txt", old_string: "one", new_string: "two" } },
      { name: "bash", args: { command: "echo x > y.txt" } },
      { name: "write_file", args: { path: "./PLAN.md", content: plan } },
    ]),
    text("The plan is in PLAN.md; leave plan mode to carry it out."),
    toolCall("write_file", { path: "x.txt", content: "made\n" }),
    text("Done."),
  ]);
  const result = await project.run([], {
    stdin: "look around\n/plan\nplan the change\n/plan off\nmake the change\n",
    env: ENV,
  });
  assertEquals(result.code, 0, result.stderr);

  const all = requests();
  assertEquals(all.length, 5);
  const [planned, made] = [toolResults(all[2]), toolResults(all[4])];
  assertEquals(planned[0], WRITE_REFUSED);
  assertEquals(
    planned[1],
    WRITE_REFUSED.replace("Cannot run write_file", "Cannot run edit_file"),
  );
  assertEquals(planned[2], "bash: line 1: y.txt: Read-only file system\nexit code 1");
  assertEquals(planned[3], `Wrote ${plan.length} bytes to "./PLAN.md" (new file)`);
  assertEquals(made.at(-1), 'Wrote 5 bytes to "x.txt" (new file)', "x.txt was never written");
  assertEquals(await Deno.readTextFile(`${project.workspace}/a.txt`), "one\n");
  assertEquals(await exists(`${project.workspace}/y.txt`), false);
  assertEquals(await Deno.readTextFile(`${project.workspace}/PLAN.md`), plan);
  assertEquals(await Deno.readTextFile(`${project.workspace}/x.txt`), "made\n");

  assertEquals(lastUser(all[0]), "look around");
  assertEquals(lastUser(all[1]), `${planOnNote()}\n\nplan the change`);
  assertEquals(lastUser(all[3]), `${planOffNote()}\n\nmake the change`);
  for (const request of all) assertEquals(prefix(request), prefix(all[0]));
  assertStringIncludes(
    result.stdout,
    "Plan mode on: the agent may change only PLAN.md, and bash runs with the workspace " +
      "read-only; /plan off leaves it\n",
  );
  assertStringIncludes(
    result.stdout,
    "Plan mode off: the agent may change files again; PLAN.md holds the plan\n",
  );
});

Deno.test("--plan with -p starts in plan mode: the write is refused and the note goes with the task", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const requests = scripted.play([
    toolCall("write_file", { path: "x.txt", content: "x\n" }),
    text("Refused; I wrote no file."),
  ]);
  const result = await project.run(["-p", "write x.txt", "--plan"], { env: ENV });
  assertEquals([result.code, result.stdout], [0, "Refused; I wrote no file.\n"], result.stderr);
  assertEquals(lastUser(requests()[0]), `${planOnNote()}\n\nwrite x.txt`);
  assertEquals(toolResults(requests()[1]), [WRITE_REFUSED]);
  assertEquals(await exists(`${project.workspace}/x.txt`), false);
});

Deno.test("--continue restores plan mode without telling the model twice; /plan with an unknown word fails in one line", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  scripted.play([text("Planned.")]);
  const first = await project.run([], { stdin: "/plan\nplan it\n", env: ENV });
  assertEquals(first.code, 0, first.stderr);
  const [id] = await sessionIds(project.dir);
  assert(id);
  const planRecords = (await sessionLines(project.dir, id)).filter((line) => line.type === "plan");
  assertEquals(planRecords, [{ type: "plan", on: true }]);

  const requests = scripted.play([
    toolCall("write_file", { path: "x.txt", content: "x\n" }),
    text("Still planning."),
  ]);
  const resumed = await project.run(["-c"], { stdin: "/plan maybe\nwrite x.txt\n", env: ENV });
  assertEquals(resumed.code, 1, "the failed command counts");
  assertStringIncludes(resumed.stdout, "Plan mode is on: /plan off leaves it\n");
  assertStringIncludes(
    resumed.stdout,
    '✗ Unknown argument "maybe" for /plan: use /plan, /plan on or /plan off\n',
  );
  const messages = requests()[0]?.body?.messages ?? [];
  assertEquals(messages.slice(1), [
    { role: "user", content: `${planOnNote()}\n\nplan it` },
    { role: "assistant", content: "Planned." },
    { role: "user", content: "write x.txt" },
  ]);
  assertEquals(toolResults(requests()[1]), [WRITE_REFUSED]);
  assertEquals(await exists(`${project.workspace}/x.txt`), false);
});
