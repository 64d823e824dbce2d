/**
 * `powercode -p` waits for every process it started before it exits: run in its own session,
 * no process of that session (the bubblewrap probe included) is left once it has exited.
 */
import { assert, assertEquals } from "@std/assert";
import { startFakeServer } from "./support/fake_server.ts";
import { childEnv, createTempProject } from "./support/project.ts";
import { sequence, text } from "./support/scripts.ts";
import { ENV, provider } from "./support/sessions.ts";

/** Fields of /proc/PID/stat after `pid (comm)`: state, ppid, pgrp, session, … starttime. */
function stat(pid: string): { name: string; fields: string[] } | undefined {
  try {
    const text = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const end = text.lastIndexOf(")");
    return { name: text.slice(0, end + 1), fields: text.slice(end + 2).split(" ") };
  } catch {
    return undefined;
  }
}

/**
 * `pid (comm) state` of every process of the session `leader` leads. Processes that started
 * before it are left out: a zombie nobody reaps keeps the session id of a leader long gone,
 * whose pid the system may have given to `leader` since.
 */
function sessionProcesses(leader: number, startedAt: number): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const process = stat(entry.name);
    if (process === undefined) continue;
    const [state, , , session] = process.fields;
    const started = Number(process.fields[19]);
    if (Number(session) === leader && started >= startedAt) found.push(`${process.name} ${state}`);
  }
  return found;
}

Deno.test("17.10 powercode -p leaves no process behind, not even the bubblewrap probe", async () => {
  await using server = await startFakeServer({ handler: sequence([text("Done.")]) });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  // Start times in /proc are clock ticks since boot (100 a second on Linux).
  const startedAt = Math.floor(Number(Deno.readTextFileSync("/proc/uptime").split(" ")[0]) * 100);
  assert(Number.isFinite(startedAt), "the time since boot");
  // setsid(1) makes the run a session of its own, whose id is the child's pid.
  const child = new Deno.Command("setsid", {
    args: ["deno", "task", "--quiet", "start", "-p", "hi"],
    cwd: project.dir,
    clearEnv: true,
    env: childEnv(ENV),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = await child.output();
  assertEquals(
    [output.code, new TextDecoder().decode(output.stdout)],
    [0, "Done.\n"],
    new TextDecoder().decode(output.stderr),
  );
  assertEquals(sessionProcesses(child.pid, startedAt), []);
});
