/**
 * End-to-end: session files that lie or are shared. `deno task start` in a temp copy of the
 * project against the strict fake server: a hand-edited session whose records contradict
 * each other is refused in one line with exit 2, and two processes never write to one
 * session at the same time.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { createTempProject, type TempProject } from "../support/project.ts";
import { isAlive, powercodePid, waitUntil } from "../support/processes.ts";
import { text } from "../support/scripts.ts";
import {
  ENV,
  provider,
  type ScriptedServer,
  sessionIds,
  sessionLines,
  sessionPath,
  startScriptedServer,
} from "../support/sessions.ts";

/** Runs one task and returns the id of the session it left. */
async function firstSession(project: TempProject, scripted: ScriptedServer): Promise<string> {
  scripted.play([text("Hello.")]);
  const result = await project.run([], { stdin: "first task\n", env: ENV });
  assertEquals(result.code, 0, result.stderr);
  const [id] = await sessionIds(project.dir);
  assert(id);
  return id;
}

/** A powercode resuming `id` on piped stdin, left running once it has resumed. */
async function resumeAndHold(project: TempProject, id: string) {
  const child = project.spawn(["--resume", id], { env: ENV });
  let stdout = "";
  const output = child.stdout.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void (stdout += chunk) }),
  );
  const stderr = new Response(child.stderr).text();
  await waitUntil(() => stdout.includes(`Resumed session ${id}`), "the first resume", {
    detail: () => stdout,
  });
  const stdin = child.stdin.getWriter();
  return {
    /** Sends `task`, closes stdin and waits for the process to end. */
    async finish(task: string) {
      await stdin.write(new TextEncoder().encode(`${task}\n`));
      await stdin.close();
      const { code } = await child.status;
      await output;
      return { code, stdout, stderr: await stderr };
    },
    /** Kills the powercode process (not just `deno task`) with SIGKILL; waits until it is gone. */
    async kill() {
      const pid = await powercodePid(child.pid);
      Deno.kill(pid, "SIGKILL");
      await waitUntil(async () => !await isAlive(pid), "the killed powercode to be gone");
      await stdin.close().catch(() => {});
      await child.status;
      await output;
      await stderr;
    },
  };
}

Deno.test("powercode --continue refuses a session compacted past its end, in one line, exit 2", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const id = await firstSession(project, scripted);
  const forged = { summary: "nothing", compactedUntil: 40 };
  await Deno.writeTextFile(
    sessionPath(project.dir, id),
    `${JSON.stringify({ type: "compaction", state: forged, tokensBefore: 9, tokensAfter: 1 })}\n`,
    { append: true },
  );
  const requests = scripted.play([text("Hello again.")]);
  const result = await project.run(["--continue"], { stdin: "second task\n", env: ENV });
  assertEquals([result.code, result.stdout], [2, ""]);
  assertEquals(
    result.stderr,
    `powercode: Cannot load session ".powercode/sessions/${id}.jsonl": line 8 compacts until ` +
      "message 40, but only 2 come before it; run powercode without --continue/--resume for " +
      "a new session\n",
  );
  assertEquals(requests(), []);
});

Deno.test("powercode refuses to resume a session another powercode has open; the lock ends with that process, even on SIGKILL", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const id = await firstSession(project, scripted);
  const inUse = `powercode: Cannot resume session "${id}": another powercode process is using ` +
    `it (".powercode/sessions/${id}.jsonl" is locked); wait for it to end; run powercode ` +
    "without --continue/--resume for a new session\n";

  const holder = await resumeAndHold(project, id);
  for (const args of [["--resume", id], ["--continue"]]) {
    const second = await project.run(args, { stdin: "intruder task\n", env: ENV });
    assertEquals([second.code, second.stdout, second.stderr], [2, "", inUse]);
  }
  scripted.play([text("Second answer.")]);
  const first = await holder.finish("second task");
  assertEquals(first.code, 0, first.stderr);
  const users = (await sessionLines(project.dir, id)).flatMap((line) => {
    const message = line.message as { role?: string; content?: string } | undefined;
    return message?.role === "user" ? [message.content] : [];
  });
  assertEquals(users, ["first task", "second task"]);

  await (await resumeAndHold(project, id)).kill();
  scripted.play([text("Third answer.")]);
  const after = await project.run(["--continue"], { stdin: "third task\n", env: ENV });
  assertEquals(after.code, 0, after.stderr);
  assertMatch(
    after.stdout,
    new RegExp(`^Resumed session ${id} \\(4 messages\\)\nThird answer.\n$`),
  );
  assertEquals(await sessionIds(project.dir), [id]);
});
