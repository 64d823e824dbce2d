/**
 * End-to-end (issue 36.13): `@path` in the task of `-p` attaches the file as at the prompt,
 * the piped text going after it as context; a file the REPL refuses is refused before
 * anything is sent; tasks piped one per line attach theirs too.
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import type { ChatMessage } from "../support/fake_server.ts";
import { createTempProject } from "../support/project.ts";
import { text, withoutSystem } from "../support/scripts.ts";
import { ENV, provider, startScriptedServer } from "../support/sessions.ts";

function userTexts(messages: readonly ChatMessage[] | undefined): string[] {
  return withoutSystem(messages).filter((m) => m.role === "user").map((m) => String(m.content));
}

Deno.test("powercode -p with @file sends the file's text with the task, the piped text after it", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  await Deno.writeTextFile(`${project.workspace}/notes.txt`, "alpha\nbeta\n");
  const requests = scripted.play([text("Read.")]);
  const result = await project.run(["-p", "summarize @notes.txt"], {
    stdin: "log line\n",
    env: ENV,
  });
  assertEquals(result.code, 0, result.stderr);
  assertEquals(result.stdout, "Read.\n");
  assertStringIncludes(result.stderr, "  attached notes.txt (2 lines)");
  assertEquals(userTexts(requests()[0]?.body?.messages), [
    'summarize @notes.txt\n\n<attached-file path="notes.txt">\n1\talpha\n2\tbeta\n' +
    "</attached-file>\n\n<stdin>\nlog line\n</stdin>",
  ]);
});

Deno.test("powercode -p with an ignored @file exits 2 with the reason; nothing is sent", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  await Deno.writeTextFile(`${project.workspace}/.powercodeignore`, "secret.txt\n");
  await Deno.writeTextFile(`${project.workspace}/secret.txt`, "do not send\n");
  const requests = scripted.play([text("Never.")]);
  const result = await project.run(["-p", "show @secret.txt"], { env: ENV });
  assertEquals(result.code, 2, result.stderr);
  assertStringIncludes(result.stderr, '"secret.txt" is ignored by .powercodeignore');
  assertEquals(result.stdout, "");
  assertEquals(requests().length, 0);
});

Deno.test("tasks piped one per line attach their @file as typed ones do", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  await Deno.writeTextFile(`${project.workspace}/notes.txt`, "alpha\n");
  const requests = scripted.play([text("Read.")]);
  const result = await project.run([], { stdin: "read @notes.txt\n", env: ENV });
  assertEquals(result.code, 0, result.stderr);
  assert(result.stdout.includes("  attached notes.txt (1 line)"), result.stdout);
  assertEquals(userTexts(requests()[0]?.body?.messages), [
    'read @notes.txt\n\n<attached-file path="notes.txt">\n1\talpha\n</attached-file>',
  ]);
});
