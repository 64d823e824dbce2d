/**
 * `powercode -p` waits for every process it started before it exits: run in its own session,
 * no process of that session (the bubblewrap probe included) is left once it has exited.
 */
import { assertEquals } from "@std/assert";
import { startFakeServer } from "./support/fake_server.ts";
import { childEnv, createTempProject } from "./support/project.ts";
import { sequence, text } from "./support/scripts.ts";
import { ENV, provider } from "./support/sessions.ts";

/** `pid state` of every process whose session is `session`. */
function sessionProcesses(session: number): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    let stat: string;
    try {
      stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp session ...; comm may hold spaces and parentheses.
    const [state, , , sid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(sid) === session) found.push(`${stat.slice(0, stat.lastIndexOf(")") + 1)} ${state}`);
  }
  return found;
}

Deno.test("17.10 powercode -p leaves no process behind, not even the bubblewrap probe", async () => {
  await using server = await startFakeServer({ handler: sequence([text("Done.")]) });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
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
  assertEquals(sessionProcesses(child.pid), []);
});
