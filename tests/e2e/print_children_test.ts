/**
 * `powercode -p` waits for every process it started before it exits: run in its own session,
 * no process of that session (the bubblewrap probe included) is left once it has exited.
 */
import { assertEquals } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { childEnv, createTempProject } from "../support/project.ts";
import { sequence, text } from "../support/scripts.ts";
import { ENV, provider } from "../support/sessions.ts";

/**
 * `pid state comm` of every process in the session `leader` leads that started within the
 * last `seconds`: a zombie nobody reaps keeps the session id of a leader long gone, whose pid
 * the system may have given to `leader` since.
 */
async function sessionProcesses(leader: number, seconds: number): Promise<string[]> {
  const ps = await new Deno.Command("ps", { args: ["-eo", "pid=,sid=,etimes=,stat=,comm="] })
    .output();
  return new TextDecoder().decode(ps.stdout).split("\n").map((line) => line.trim().split(/\s+/))
    .filter(([, sid, etimes]) => Number(sid) === leader && Number(etimes) <= seconds)
    .map(([pid, , , state, comm]) => `${pid} ${state} ${comm}`);
}

Deno.test("17.10 powercode -p leaves no process behind, not even the bubblewrap probe", async () => {
  await using server = await startFakeServer({ handler: sequence([text("Done.")]) });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const started = Date.now();
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
  const seconds = Math.ceil((Date.now() - started) / 1000) + 1;
  assertEquals(await sessionProcesses(child.pid, seconds), []);
});
