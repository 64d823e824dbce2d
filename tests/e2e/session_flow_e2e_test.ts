/**
 * End-to-end: the session flow a daily user meets, through `deno task start` (the real
 * permission set): the README's from-source forms, the shipped provider.json, -p with piped
 * input, listing and resuming sessions, AGENTS.md.
 *
 * @module
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { createTempProject } from "../support/project.ts";
import { systemText, text, toolCall } from "../support/scripts.ts";
import {
  ENV,
  LITERAL_KEY_WARNING,
  provider,
  sessionIds,
  startScriptedServer,
} from "../support/sessions.ts";

const SHIPPED = JSON.parse(
  await Deno.readTextFile(new URL("../../provider.json", import.meta.url)),
) as Record<string, unknown>;

Deno.test("deno task start -- -p TASK (the README's from-source form) runs the task", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const requests = scripted.play([text("Done from source.")]);
  const result = await project.run(["--", "-p", "say hi", "--max-steps", "3"], { env: ENV });
  assertEquals([result.code, result.stdout], [0, "Done from source.\n"], result.stderr);
  assertEquals(requests()[0]?.body?.messages.at(-1), { role: "user", content: "say hi" });
});

Deno.test("the shipped provider.json needs no key and never sends OPENAI_API_KEY", async () => {
  assertEquals(SHIPPED.apiKey, null);
  await using server = await startFakeServer({ apiKey: "no-key", handler: () => text("Local.") });
  await using project = await createTempProject();
  await project.writeProvider({ ...SHIPPED, baseURL: server.url, model: "fake-model" });
  const result = await project.run(["-p", "hi"], { env: { OPENAI_API_KEY: "sk-do-not-send" } });
  assertEquals([result.code, result.stdout, result.stderr], [0, "Local.\n", ""]);
  assertEquals(server.requests[0]?.headers.authorization, "Bearer no-key");
});

Deno.test("a literal key in ./provider.json gets a one-line warning that claims no git outside a repository", async () => {
  await using server = await startFakeServer({ apiKey: "sk-literal", handler: () => text("Ok.") });
  await using project = await createTempProject();
  await project.writeProvider({ ...provider(server.url), apiKey: "sk-literal" });
  const result = await project.run(["-p", "hi"]);
  assertEquals(result.code, 0, result.stderr);
  assertEquals(
    result.stderr,
    `${LITERAL_KEY_WARNING}\n`,
  );
  assert(!result.stderr.includes("sk-literal"));
});

Deno.test("-p sends piped stdin with the task, delimited, and refuses input too large for the window", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const requests = scripted.play([text("Two errors.")]);
  const log = "12:00 ok\n12:01 ERROR disk full\n12:02 ERROR disk full\n";
  const result = await project.run(["-p", "summarize the log"], { stdin: log, env: ENV });
  assertEquals([result.code, result.stdout], [0, "Two errors.\n"], result.stderr);
  assertEquals(requests()[0]?.body?.messages.at(-1), {
    role: "user",
    content: `summarize the log\n\n<stdin>\n${log.trimEnd()}\n</stdin>`,
  });
  const huge = "word ".repeat(60_000);
  const refused = await project.run(["-p", "summarize"], { stdin: huge, env: ENV });
  assertEquals(refused.code, 2);
  assertMatch(
    refused.stderr,
    /^powercode: Cannot send the piped input: it is about \d+ tokens, more than half of what fits the window \(\d+\); pipe less of it \(e\.g\. through tail -n 200\)\n$/,
  );
  assertEquals(requests().length, 1, "nothing is sent for refused input");
});

Deno.test("-p with an empty task says what to give", async () => {
  await using project = await createTempProject();
  const result = await project.run(["-p", ""]);
  assertEquals(
    [result.code, result.stderr],
    [2, 'powercode: Invalid -p: the task is empty; give its text, e.g. -p "list the files"\n'],
  );
});

Deno.test("--sessions and -r list sessions; --resume takes a unique prefix and refuses an ambiguous one", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  scripted.play([text("A."), text("B.")]);
  await project.run([], { stdin: "alpha task\n", env: ENV });
  await project.run([], { stdin: "beta task\n", env: ENV });
  const [alpha, beta] = await sessionIds(project.dir) as [string, string];

  const listed = await project.run(["--sessions"]);
  assertEquals(listed.code, 0, listed.stderr);
  const lines = listed.stdout.trimEnd().split("\n");
  assertMatch(lines[0] ?? "", /^ {3}ID {22}LAST USED \(UTC[+-]\d\d:\d\d\) {2}MSGS {2}FIRST TASK$/);
  assertStringIncludes(lines[1] ?? "", `${beta}  `);
  assert(lines[1]?.endsWith("  beta task"), lines[1]);
  assert(lines[2]?.endsWith("  alpha task"), lines[2]);

  const chooser = await project.run(["-r"]);
  assertEquals(chooser.code, 0, chooser.stderr);
  assertEquals(
    chooser.stdout,
    `${listed.stdout.trimEnd()}\n` +
      "Resume one with: powercode -r ID (any unique start of the id)\n",
  );

  const requests = scripted.play([text("Resumed.")]);
  const unique = alpha.slice(0, commonPrefix(alpha, beta).length + 1);
  const resumed = await project.run(["--resume", unique], { stdin: "again\n", env: ENV });
  assertEquals(resumed.code, 0, resumed.stderr);
  assertStringIncludes(resumed.stdout, `Resumed session ${alpha} (2 messages)`);
  assertEquals(requests()[0]?.body?.messages[1], { role: "user", content: "alpha task" });

  const common = commonPrefix(alpha, beta);
  const ambiguous = await project.run(["--resume", common], { env: ENV });
  assertEquals(ambiguous.code, 2);
  assertEquals(
    ambiguous.stderr,
    `powercode: Cannot resume session "${common}": 2 sessions start with it (${alpha}, ${beta}); give more of the id\n`,
  );

  const missing = await project.run(["--resume", "zzz"], { env: ENV });
  assertEquals(missing.code, 2);
  assertEquals(missing.stderr.split("\n").length, 2, missing.stderr);
  assertStringIncludes(missing.stderr, "zzz");
});

Deno.test("AGENTS.md joins the system prompt byte-stably, and /clear reads it again", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  await Deno.writeTextFile(`${project.workspace}/AGENTS.md`, "Use tabs.\n");
  const requests = scripted.play([
    toolCall("write_file", { path: "AGENTS.md", content: "Use spaces.\n" }),
    text("Changed."),
    text("Noted."),
  ]);
  const result = await project.run([], {
    stdin: "switch to spaces\n/clear\nwhat now?\n",
    env: ENV,
  });
  assertEquals(result.code, 0, result.stderr);
  const [first, second, third] = requests();
  const instructions = "# Project instructions (AGENTS.md in the workspace)";
  assert(first && second && third);
  assert(systemText(first).endsWith(`${instructions}\n\nUse tabs.\n`), systemText(first));
  assertEquals(systemText(second), systemText(first), "the prompt stays byte-stable");
  assert(systemText(third).endsWith(`${instructions}\n\nUse spaces.\n`), systemText(third));
  // Piped, the start prints no banner: the line is /clear's.
  assertStringIncludes(result.stdout, "Loaded AGENTS.md (12 bytes)\n");
});

function commonPrefix(a: string, b: string): string {
  let end = 0;
  while (end < a.length && a[end] === b[end]) end++;
  return a.slice(0, end);
}
