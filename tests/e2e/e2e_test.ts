/**
 * End-to-end: `deno task start` (the real permission set) in a temp copy of the
 * project, driven through stdin and -p against the strict fake server.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { NO_REPLY } from "../../src/agent/task_notes.ts";
import { startFakeServer } from "../support/fake_server.ts";
import { sequence, text, toolCall, withoutSystem } from "../support/scripts.ts";
import { createTempProject } from "../support/project.ts";
import { provider } from "../support/sessions.ts";

const KEY = "sk-test-secret-4242";

async function sessionFiles(dir: string): Promise<string[]> {
  const texts: string[] = [];
  for await (const entry of Deno.readDir(`${dir}/.powercode/sessions`)) {
    texts.push(await Deno.readTextFile(`${dir}/.powercode/sessions/${entry.name}`));
  }
  return texts;
}

Deno.test("powercode remembers the first task when piped a second one", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    handler: sequence([text("Hello Ada."), text("Your name is Ada.")]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const result = await project.run([], {
    stdin: "my name is Ada\n\nwhat is my name?\n",
    env: { POWERCODE_TEST_KEY: KEY },
  });
  assertEquals(result.code, 0, result.stderr);
  assertEquals(result.stdout, "Hello Ada.\nYour name is Ada.\n");
  assertEquals(server.requests.map((request) => request.status), [200, 200]);
  const second = server.requests[1]?.body;
  assertEquals(withoutSystem(second?.messages ?? []), [
    { role: "user", content: "my name is Ada" },
    { role: "assistant", content: "Hello Ada." },
    { role: "user", content: "what is my name?" },
  ]);
  assertEquals(second?.tools?.map((tool) => tool.function.name), [
    "read_file",
    "write_file",
    "edit_file",
    "bash",
    "todo",
    "grep",
    "glob",
    "ls",
    "bash_output",
    "bash_kill",
    "fetch",
    "task",
  ]);
  assertEquals(server.requests[0]?.headers.authorization, `Bearer ${KEY}`);
  assertEquals(
    server.requests[0]?.raw && (server.requests[0].raw as Record<string, unknown>).stream_options,
    {
      include_usage: true,
    },
  );
  for (const file of await sessionFiles(project.dir)) {
    assert(!file.includes(KEY), "key leaked to session");
  }
  assert(!result.stdout.includes(KEY) && !result.stderr.includes(KEY));
});

Deno.test("powercode -p writes, edits, reads and runs a command in the workspace", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    handler: sequence([
      toolCall("write_file", { path: "src/hello.sh", content: "echo hello\necho world\n" }),
      toolCall("edit_file", { path: "src/hello.sh", old_string: "world", new_string: "powercode" }),
      toolCall("read_file", { path: "src/hello.sh" }),
      toolCall("bash", { command: "bash src/hello.sh > out.txt; cat out.txt" }),
      text("Done: the script prints hello and powercode."),
    ]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const result = await project.run(["-p", "make a hello script and run it"], {
    env: { POWERCODE_TEST_KEY: KEY },
  });
  assertEquals(result.code, 0, result.stderr);
  assertEquals(result.stdout, "Done: the script prints hello and powercode.\n");
  assertEquals(
    await Deno.readTextFile(`${project.workspace}/src/hello.sh`),
    "echo hello\necho powercode\n",
  );
  assertEquals(await Deno.readTextFile(`${project.workspace}/out.txt`), "hello\npowercode\n");
  assertStringIncludes(result.stderr, "● write_file src/hello.sh");
  assertStringIncludes(result.stderr, "● bash bash src/hello.sh > out.txt; cat out.txt");
  const results = (server.requests.at(-1)?.body?.messages ?? []).filter((m) => m.role === "tool");
  assertEquals(results.length, 4);
  assertStringIncludes(results[2]?.content ?? "", "echo powercode");
  assertStringIncludes(results[3]?.content ?? "", "hello\npowercode");
  assertStringIncludes(results[3]?.content ?? "", "exit code 0");
});

Deno.test("powercode answers a malformed tool call with an error result and goes on", async () => {
  await using server = await startFakeServer({
    handler: sequence([
      toolCall("read_file", '{"path": "a.txt"'),
      toolCall("delete_everything", {}),
      text("Sorry."),
    ]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const result = await project.run(["-p", "go"], { env: { POWERCODE_TEST_KEY: KEY } });
  assertEquals(result.code, 0, result.stderr);
  const messages = server.requests.at(-1)?.body?.messages ?? [];
  const results = messages.filter((m) => m.role === "tool").map((m) => m.content);
  assertMatch(results[0] ?? "", /^Error: Cannot run read_file: arguments are not valid JSON/);
  assertMatch(results[1] ?? "", /^Error: Unknown tool "delete_everything"/);
});

Deno.test("powercode stops at --max-steps with a message and a valid session", async () => {
  await using server = await startFakeServer({
    handler: sequence([
      toolCall("bash", { command: "true" }),
      toolCall("bash", { command: "true" }),
      text("Picked up again."),
    ]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const result = await project.run(["--max-steps", "2"], {
    stdin: "loop\ncontinue\n",
    env: { POWERCODE_TEST_KEY: KEY },
  });
  assertStringIncludes(result.stdout, "Stopped after 2 model calls (--max-steps 2)");
  assertStringIncludes(result.stdout, "Picked up again.");
  assertEquals(server.requests.map((request) => request.status), [200, 200, 200]);
  assertEquals(result.code, 1);
});

Deno.test("powercode ends a task with one line on provider errors and the next task works", async (t) => {
  const cases = [
    {
      status: 401,
      message: "Incorrect API key provided",
      expect: /The provider refused the API key \(401\).*check "apiKey" in provider.json/,
    },
    {
      status: 404,
      message: "The model `x` does not exist",
      expect: /does not serve model "fake-model".*\(404\)/,
    },
    {
      status: 400,
      message: "Invalid value for 'temperature'",
      expect: /The provider rejected the request \(400\)/,
    },
  ];
  for (const failure of cases) {
    await t.step(`status ${failure.status}`, async () => {
      await using server = await startFakeServer({
        handler: sequence([
          { type: "error", status: failure.status, message: failure.message },
          text("fine now"),
        ]),
      });
      await using project = await createTempProject();
      await project.writeProvider(provider(server.url));
      const result = await project.run([], {
        stdin: "one\ntwo\n",
        env: { POWERCODE_TEST_KEY: KEY },
      });
      const lines = result.stdout.split("\n").filter((line) => line.startsWith("✗"));
      assertEquals(lines.length, 1, result.stdout);
      assertMatch(lines[0] ?? "", failure.expect);
      assertStringIncludes(result.stdout, "fine now");
      // The failed task is closed with a stand-in reply and a note, so roles alternate and
      // the model learns why "one" got no answer before it reads "two".
      const messages = withoutSystem(server.requests[1]?.body?.messages ?? []);
      assertEquals(messages.slice(0, 2), [
        { role: "user", content: "one" },
        { role: "assistant", content: NO_REPLY },
      ]);
      assertEquals(messages.length, 3);
      assertMatch(
        String(messages[2]?.content),
        /^\[powercode\] The previous task stopped on an error before it finished: .+\n\ntwo$/s,
      );
    });
  }
});

Deno.test("powercode -p says what to check when the server refuses connections, after one quick retry", async () => {
  await using project = await createTempProject();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${listener.addr.port}/v1`;
  listener.close();
  await project.writeProvider(provider(url));
  const result = await project.run(["-p", "hi"], { env: { POWERCODE_TEST_KEY: KEY } });
  assertEquals(result.code, 1);
  assertEquals(result.stdout, "");
  const lines = result.stderr.trim().split("\n");
  assertEquals(
    lines.at(-1),
    `✗ Cannot reach the model server at "${url}" (connection refused): is the server running, and is "baseURL" in provider.json right?`,
  );
  assertEquals(lines.filter((line) => line.startsWith("↻")).length, 1, result.stderr);
});

Deno.test("powercode's bash sees neither the API key nor provider.json nor the sessions", async () => {
  await using server = await startFakeServer({
    apiKey: KEY,
    handler: sequence([
      toolCall("bash", {
        command: "env; cat ../provider.json; ls -A ../.powercode; grep -rl sk-test .. 2>/dev/null",
      }),
      text("checked"),
    ]),
  });
  await using project = await createTempProject();
  await project.writeProvider({ ...provider(server.url), apiKey: KEY });
  const result = await project.run(["-p", "look around"], { env: { OPENAI_API_KEY: KEY } });
  assertEquals(result.code, 0, result.stderr);
  const output = server.requests[1]?.body?.messages.find((m) => m.role === "tool")?.content ?? "";
  assertStringIncludes(output, "PATH=/usr/local/bin:/usr/bin:/bin");
  assert(!output.includes(KEY), output);
  assert(!output.includes("OPENAI_API_KEY"), output);
});

Deno.test("powercode -p stops on SIGINT with one line and exit 130", async () => {
  await using server = await startFakeServer({
    handler: sequence([text("slow ".repeat(200), { chunkSize: 5, chunkDelayMs: 50 })]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const child = project.spawn(["-p", "talk slowly"], { env: { POWERCODE_TEST_KEY: KEY } });
  await child.stdin.close();
  while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 200));
  child.kill("SIGINT");
  const output = await child.output();
  const stderr = new TextDecoder().decode(output.stderr);
  assertEquals([output.code, new TextDecoder().decode(output.stdout)], [130, ""]);
  assertEquals(stderr.trim().split("\n").at(-1), "⏹ Interrupted");
});
