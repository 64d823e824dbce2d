/**
 * End-to-end: background commands through the real program (`deno task start` on piped
 * stdin) against the strict fake server: read twice with only the new lines, ended whole by
 * bash_kill, and none left behind when powercode exits or is killed.
 *
 * @module
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import type { RecordedRequest } from "../support/fake_server.ts";
import { createTempProject } from "../support/project.ts";
import { powercodePid, processesMatching, waitUntil } from "../support/processes.ts";
import { text, toolCall } from "../support/scripts.ts";
import { ENV, provider, startScriptedServer } from "../support/sessions.ts";

function toolResults(request: RecordedRequest | undefined): string[] {
  return (request?.body?.messages ?? []).filter((m) => m.role === "tool")
    .map((m) => String(m.content));
}

/** A job printing a line per second, with a child of its own that `marker` finds. */
function ticker(marker: number): string {
  return `sleep ${marker} & for i in $(seq 1 60); do echo tick $i; sleep 1; done`;
}

Deno.test("a background command is read twice with only the new lines, bash_kill ends its group, exiting powercode ends the rest", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  // Numbers of this run only: a process another run left behind cannot be mistaken for ours.
  const killed = uniqueNumber();
  const left = killed + 1;
  const requests = scripted.play([
    toolCall("bash", { command: ticker(killed), background: true }),
    toolCall("bash", { command: ticker(left), background: true }),
    toolCall("bash_output", { id: "1" }, { delayMs: 2500 }),
    toolCall("bash_output", { id: "1" }, { delayMs: 2000 }),
    toolCall("bash_kill", { id: "1" }),
    toolCall("bash_output", { id: "9" }),
    text("Watched."),
  ]);
  const child = project.spawn([], { env: ENV });
  const stdin = child.stdin.getWriter();
  const output = Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
  ]);
  await stdin.write(new TextEncoder().encode("watch the ticker\n"));
  await waitUntil(
    () => requests().some((request) => toolResults(request).length === 6),
    "the task's last request",
  );
  assertEquals(await processesMatching(`sleep ${killed}`), [], "bash_kill ended the group");
  assertEquals((await processesMatching(`sleep ${left}`)).length > 0, true);
  await stdin.write(new TextEncoder().encode("/ps\n"));
  await stdin.close();
  const [stdout, stderr] = await output;
  assertEquals((await child.status).code, 0, stderr);
  assertEquals(await processesMatching(`sleep ${left}`), [], "exiting ended the other job");
  const [started, , first, second, kill, unknown] = toolResults(requests().at(-1));
  assertEquals(
    started,
    `Started background command 1: ${ticker(killed)}\nRead what it prints with bash_output ` +
      `(id "1"); end it with bash_kill (id "1").`,
  );
  assertMatch(first ?? "", /^tick 1\ntick 2\n(tick 3\n)?still running \(started \d s ago\)$/);
  const lastOfFirst = Number(first?.match(/tick (\d+)\nstill/)?.[1]);
  assert(!second?.includes(`tick ${lastOfFirst}\n`), "the second read has only new lines");
  assertStringIncludes(second ?? "", `tick ${lastOfFirst + 1}\n`);
  assertEquals(kill, `Killed background command 1: ${ticker(killed)}`);
  assertEquals(unknown, 'Error: No background command "9": the ids are 1, 2');
  const logs = [...Deno.readDirSync(`${project.dir}/.powercode/jobs`)].map((entry) => entry.name)
    .sort();
  assertEquals(logs.length, 2);
  const whole = await Deno.readTextFile(`${project.dir}/.powercode/jobs/${logs[0]}`);
  assertStringIncludes(whole, `tick 1\ntick 2\n`, "the log keeps the output already read");
  assertMatch(stdout, new RegExp(`\\n {2}1 {3}killed {4}\\d+ s +sleep ${killed} & for i`));
  assertMatch(stdout, new RegExp(`\\n {2}2 {3}running {3}\\d+ s +sleep ${left} & for i`));
});

Deno.test("a background command ends when powercode is killed", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const marker = uniqueNumber();
  const held = scripted.hold(text("Never seen."));
  scripted.play([toolCall("bash", { command: ticker(marker), background: true }), held.step]);
  const child = project.spawn([], { env: ENV });
  const stdin = child.stdin.getWriter();
  const output = Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
  ]);
  try {
    await stdin.write(new TextEncoder().encode("start the ticker\n"));
    const pid = await powercodePid(child.pid);
    await waitUntil(
      async () => (await processesMatching(`sleep ${marker}`)).length > 0,
      "the background command",
    );
    Deno.kill(pid, "SIGKILL");
    await child.status;
    await waitUntil(
      async () => (await processesMatching(`sleep ${marker}`)).length === 0,
      "no process of the background command",
      { timeoutMs: 5000, detail: async () => (await processesMatching(`${marker}`)).join("\n") },
    );
  } finally {
    held.release();
    await stdin.close().catch(() => {});
    await output;
  }
});

/** A number for a `sleep` to be recognized by, different in each run. */
function uniqueNumber(): number {
  return 900_000 + Math.floor(Math.random() * 90_000) * 2;
}
