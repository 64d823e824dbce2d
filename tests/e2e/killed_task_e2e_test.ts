/**
 * End-to-end (issue 34): powercode killed while a task's first request is in flight leaves
 * the session ending with that task's message; `--continue` records the task as interrupted
 * (a stand-in reply and a note), so the next task is not merged into the killed one's message
 * and the bytes already sent stay the prefix of the next request.
 *
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { hang, sequence, text, withoutSystem } from "../support/scripts.ts";
import { startFakeServer } from "../support/fake_server.ts";
import { createTempProject } from "../support/project.ts";
import { powercodePid, waitUntil } from "../support/processes.ts";
import { ENV, provider, sessionIds, sessionLines } from "../support/sessions.ts";

Deno.test("--continue after powercode was killed mid-request closes the killed task as interrupted", async () => {
  await using server = await startFakeServer({
    handler: sequence([hang(), text("Second answer.")]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const child = project.spawn(["-p", "first task"], { env: ENV });
  await child.stdin.close();
  const output = child.output();
  await waitUntil(() => server.requests.length === 1, "the first request");
  Deno.kill(await powercodePid(child.pid), "SIGKILL");
  await output;
  const [id] = await sessionIds(project.dir);
  assert(id);
  const killed = await sessionLines(project.dir, id);
  assertEquals(killed.at(-1)?.message, { role: "user", content: "first task" });

  const resumed = await project.run(["-c", "-p", "second task"], { env: ENV });
  assertEquals([resumed.code, resumed.stdout], [0, "Second answer.\n"], resumed.stderr);
  const [sent, next] = server.requests.map((request) => request.body?.messages ?? []);
  // What was sent before the kill is the prefix of the next request, byte for byte.
  assertEquals(next?.slice(0, sent!.length), sent);
  const [note, ...rest] = withoutSystem(next).slice(1);
  assertEquals(note, { role: "assistant", content: "(no reply)" });
  assertEquals(rest.length, 1, JSON.stringify(rest));
  const last = String(rest[0]?.content);
  assert(last.startsWith("[powercode] The previous task was interrupted before it finished"), last);
  assert(last.endsWith("\n\nsecond task"), last);
  // The session file says so too: the stand-in reply and the note follow the killed task.
  const lines = (await sessionLines(project.dir, id)).flatMap((line) =>
    line.type === "message" ? [line.message as { role: string; content: string }] : []
  );
  assertEquals(lines.map((message) => message.role), [
    "user",
    "assistant",
    "user",
    "user",
    "assistant",
  ]);
  assertStringIncludes(lines[2]?.content ?? "", "powercode was stopped before the reply came");
});
