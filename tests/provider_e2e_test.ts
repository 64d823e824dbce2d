/**
 * End-to-end against recorded provider traffic: `deno task start -p` and `-c -p` in a temp
 * copy of the project, with the fake server applying the provider's own rules.
 */
import { assertEquals, assertStringIncludes } from "@std/assert";
import { startFakeServer } from "./support/fake_server.ts";
import { replay } from "./support/provider_fixtures.ts";
import { requireReasoningContent, requireThoughtSignatures } from "./support/provider_rules.ts";
import { createTempProject } from "./support/project.ts";
import { ENV, KEY, provider } from "./support/sessions.ts";
import { sequence, text } from "./support/scripts.ts";

Deno.test("DeepSeek thinking mode: a tool loop works, and again after resuming the session", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    rules: [requireReasoningContent()],
    handler: sequence([
      await replay("deepseek/thinking-tool-call.chunks.jsonl"),
      text("No weather tool here."),
      text("Still none tomorrow."),
    ]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const first = await project.run(["-p", "weather in San Francisco?"], { env: ENV });
  assertEquals([first.code, first.stdout], [0, "No weather tool here.\n"], first.stderr);
  const resumed = await project.run(["-c", "-p", "and tomorrow?"], { env: ENV });
  assertEquals([resumed.code, resumed.stdout], [0, "Still none tomorrow.\n"], resumed.stderr);
  assertEquals(server.requests.map((request) => request.status), [200, 200, 200]);
  const [file] = [...Deno.readDirSync(`${project.dir}/.powercode/sessions`)];
  const lines = Deno.readTextFileSync(`${project.dir}/.powercode/sessions/${file?.name}`);
  assertStringIncludes(lines, '"reasoning":"The user asks about the weather in San Francisco.');
  assertStringIncludes(lines, '"replayReasoning":true');
});

Deno.test("Gemini: the thought signature survives the tool loop", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    rules: [requireThoughtSignatures()],
    handler: sequence([await replay("gemini/thought-signature-tool-call.sse"), text("Read it.")]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  await Deno.writeTextFile(`${project.workspace}/notes.md`, "hello\n");
  const result = await project.run(["-p", "read notes.md"], { env: ENV });
  assertEquals([result.code, result.stdout], [0, "Read it.\n"], result.stderr);
  assertEquals(server.requests.map((request) => request.status), [200, 200]);
});
