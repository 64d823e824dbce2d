/**
 * End-to-end: approval modes and rules through the real program (`deno task start -p`)
 * against the strict fake server: a deny rule meets a command inside `&&`, and `-p` never
 * waits: what would ask is refused, the model reads why, and the question is in the session
 * and in stream-json.
 *
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import type { ChatMessage, RecordedRequest } from "../support/fake_server.ts";
import { createTempProject } from "../support/project.ts";
import { text, toolCall } from "../support/scripts.ts";
import {
  ENV,
  provider,
  sessionIds,
  sessionLines,
  startScriptedServer,
} from "../support/sessions.ts";
import { treeState } from "../support/tree_state.ts";

function toolResults(request: RecordedRequest | undefined): string[] {
  return (request?.body?.messages ?? []).flatMap((message: ChatMessage) =>
    message.role === "tool" && typeof message.content === "string" ? [message.content] : []
  );
}

Deno.test("approval e2e: deny bash(curl *) stops `true && curl x` in auto, before it runs", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  await Deno.mkdir(`${project.dir}/.powercode`, { recursive: true });
  await Deno.writeTextFile(
    `${project.dir}/.powercode/settings.json`,
    JSON.stringify({ permissions: { deny: ["bash(curl *)"] } }),
  );
  const requests = scripted.play([
    toolCall("bash", { command: "true && curl x > fetched.txt" }),
    text("Refused."),
  ]);
  const before = await treeState(project.workspace);
  const result = await project.run(["-p", "fetch x"], { env: ENV });
  assertEquals(result.code, 0, result.stderr);
  assertEquals(toolResults(requests()[1]), [
    'Error: Cannot run bash: the rule "deny: bash(curl *)" ' +
    `(.powercode/settings.json) refuses "curl x"; do not try to work around the rule`,
  ]);
  assertEquals(await treeState(project.workspace), before);
});

Deno.test("approval e2e: -p never waits: in ask a command is refused with the reason, recorded in the session and stream-json", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const requests = scripted.play([
    toolCall("bash", { command: "echo hi > a.txt" }),
    text("Could not."),
  ]);
  const before = await treeState(project.workspace);
  const result = await project.run(
    ["--approval", "ask", "-p", "write a", "--output-format", "stream-json"],
    { env: ENV },
  );
  assertEquals(result.code, 0, result.stderr);
  const [refusal] = toolResults(requests()[1]);
  assertStringIncludes(refusal ?? "", 'approval mode "ask" asks before every command, and nobody');
  assertStringIncludes(refusal ?? "", '"allow": ["bash(echo *)"]');
  assertEquals(await treeState(project.workspace), before);
  const lines = result.stdout.trim().split("\n").map((line) => JSON.parse(line));
  const permission = lines.find((line) => line.type === "permission");
  assertEquals(permission, {
    type: "permission",
    id: permission?.id,
    tool: "bash",
    subject: "echo hi > a.txt",
    question: 'approval mode "ask" asks before every command',
    answer: "refused: nobody can answer in this run",
  });
  const [id] = await sessionIds(project.dir);
  const records = await sessionLines(project.dir, id ?? "");
  assert(
    records.some((record) => record.type === "permission" && record.subject === "echo hi > a.txt"),
  );
});
