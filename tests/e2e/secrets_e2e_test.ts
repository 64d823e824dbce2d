/**
 * End-to-end: the provider's secrets never reach the terminal or a session file, through
 * `deno task start` against the strict fake server: a provider error that echoes the key, a
 * reply that repeats it (streamed in pieces that split it), and a baseURL with credentials
 * in connection errors.
 */
import { assertEquals, assertStringIncludes } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { createTempProject } from "../support/project.ts";
import { httpError, sequence, text } from "../support/scripts.ts";
import { allSessionText, ENV, KEY, provider } from "../support/sessions.ts";

Deno.test("powercode redacts the API key from provider errors, streamed replies and the session file", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    handler: sequence([
      httpError(401, `Incorrect API key provided: ${KEY}`),
      httpError(400, `Your request with key ${KEY} is malformed`),
      text(`Your key is ${KEY}, keep it safe.`, { chunkSize: 3 }),
    ]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const result = await project.run([], { stdin: "one\ntwo\nwhat is my key?\n", env: ENV });
  assertEquals(result.code, 1, result.stderr);
  assertEquals(
    result.stdout,
    `✗ The provider refused the API key (401): Incorrect API key provided: [redacted]; check ` +
      `"apiKey" in provider.json\n` +
      "✗ The provider rejected the request (400): Your request with key [redacted] is malformed\n" +
      "Your key is [redacted], keep it safe.\n",
  );
  const sessions = await allSessionText(project.dir);
  assertEquals([sessions.includes(KEY), result.stderr.includes(KEY)], [false, false]);
  assertStringIncludes(sessions, `"content":"Your key is [redacted], keep it safe."`);
  assertEquals(server.requests.at(-1)?.headers.authorization, `Bearer ${KEY}`);
});

Deno.test("powercode redacts the credentials in baseURL from connection errors", async () => {
  await using project = await createTempProject();
  await project.writeProvider(provider("http://bob:hunter2-pass@127.0.0.1:9/v1"));
  const result = await project.run(["-p", "hi"], { env: ENV });
  assertEquals([result.code, result.stdout], [1, ""]);
  // The retry line is cut to the terminal width after the redaction, never before it.
  assertStringIncludes(
    result.stderr,
    `✗ Cannot reach the model server at "http://[redacted]@127.0.0.1:9/v1"`,
  );
  assertEquals(result.stderr.includes("bob"), false, result.stderr);
  assertEquals(result.stderr.includes("hunter2"), false);
});
