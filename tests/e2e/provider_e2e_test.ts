/**
 * End to end against replies in the shape of DeepSeek's and Gemini's
 * (tests/support/provider_replies.ts): `deno task start -p` and `-c -p` in a temp copy of the
 * project, with the fake server applying the provider's own rules; and the provider profile
 * set by hand in provider.json.
 */
import { assertEquals, assertStringIncludes } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { deepseekThinkingToolCall, geminiSignedToolCall } from "../support/provider_replies.ts";
import { requireReasoningContent, requireThoughtSignatures } from "../support/provider_rules.ts";
import { createTempProject } from "../support/project.ts";
import { ENV, KEY, provider } from "../support/sessions.ts";
import { sequence, text } from "../support/scripts.ts";

type Fields = Record<string, unknown>;

Deno.test(
  "DeepSeek thinking mode: a tool loop works, and again after resuming the session",
  async () => {
    await using server = await startFakeServer({
      model: "fake-model",
      apiKey: KEY,
      rules: [requireReasoningContent()],
      handler: sequence([
        deepseekThinkingToolCall(),
        text("No weather tool here."),
        text("Still none tomorrow."),
      ]),
    });
    await using project = await createTempProject();
    await project.writeProvider(provider(server.url));
    const first = await project.run(["-p", "weather in Lisbon?"], { env: ENV });
    assertEquals([first.code, first.stdout], [0, "No weather tool here.\n"], first.stderr);
    const resumed = await project.run(["-c", "-p", "and tomorrow?"], { env: ENV });
    assertEquals([resumed.code, resumed.stdout], [0, "Still none tomorrow.\n"], resumed.stderr);
    assertEquals(server.requests.map((request) => request.status), [200, 200, 200]);
    const [file] = [...Deno.readDirSync(`${project.dir}/.powercode/sessions`)];
    const lines = Deno.readTextFileSync(`${project.dir}/.powercode/sessions/${file?.name}`);
    assertStringIncludes(lines, '"reasoning":"The user wants the weather in Lisbon.');
    assertStringIncludes(lines, '"replayReasoning":true');
  },
);

Deno.test("Gemini: the thought signature survives the tool loop", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    rules: [requireThoughtSignatures()],
    handler: sequence([geminiSignedToolCall(), text("Read it.")]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  await Deno.writeTextFile(`${project.workspace}/notes.md`, "hello\n");
  const result = await project.run(["-p", "read notes.md"], { env: ENV });
  assertEquals([result.code, result.stdout], [0, "Read it.\n"], result.stderr);
  assertEquals(server.requests.map((request) => request.status), [200, 200]);
});

Deno.test("provider.json compat changes the request the server receives", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    handler: sequence([text("Plain."), text("Marked.")]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url, { maxOutputTokens: 1000 }));
  const plain = await project.run(["-p", "hello"], { env: ENV });
  assertEquals([plain.code, plain.stdout], [0, "Plain.\n"], plain.stderr);
  await project.writeProvider(provider(server.url, {
    maxOutputTokens: 1000,
    compat: { outputLimitField: "max_completion_tokens", cacheControl: true },
  }));
  const marked = await project.run(["-p", "hello"], { env: ENV });
  assertEquals([marked.code, marked.stdout], [0, "Marked.\n"], marked.stderr);
  const [before, after] = server.requests.map((request) => request.raw as Fields);
  const system = (before?.messages as Fields[])[0];
  assertEquals([before?.max_tokens, before?.max_completion_tokens], [1000, undefined]);
  assertEquals([after?.max_tokens, after?.max_completion_tokens], [undefined, 1000]);
  assertEquals((after?.messages as Fields[])[0], {
    role: "system",
    content: [{ type: "text", text: system?.content, cache_control: { type: "ephemeral" } }],
  });
});
