/**
 * End-to-end: the workspace as users and hostile models shape it, through `deno task start`
 * (the real permission set): `workspace/` and `provider.json` as symbolic links to the
 * user's own directories, and a FIFO the model makes with bash and then asks to read.
 */
import { assertEquals, assertStringIncludes } from "@std/assert";
import { type ChatMessage, startFakeServer } from "../support/fake_server.ts";
import { createTempProject } from "../support/project.ts";
import { sequence, text, toolCall } from "../support/scripts.ts";
import { ENV, KEY, provider } from "../support/sessions.ts";

function toolResults(messages: ChatMessage[] = []): string[] {
  return messages.filter((message) => message.role === "tool").map((m) => String(m.content));
}

Deno.test("powercode works in a symlinked workspace/ with a symlinked provider.json, and escapes from the target stay refused", async () => {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "powercode-home-" }));
  try {
    await Deno.mkdir(`${home}/project/.git/hooks`, { recursive: true });
    await Deno.writeTextFile(`${home}/secret.txt`, "secret\n");
    await Deno.symlink(`${home}/secret.txt`, `${home}/project/leak.txt`);
    await using server = await startFakeServer({
      model: "fake-model",
      apiKey: KEY,
      handler: sequence([
        toolCall("write_file", { path: "notes.txt", content: "hello\n" }),
        toolCall("read_file", { path: "notes.txt" }),
        toolCall("bash", {
          command: "cat notes.txt; pwd; echo made > made.txt; " +
            "(echo evil > .git/hooks/pre-commit) 2>/dev/null || echo hooks read-only",
        }),
        toolCall("read_file", { path: "leak.txt" }),
        toolCall("read_file", { path: "../secret.txt" }),
        toolCall("read_file", { path: `${home}/project/notes.txt` }),
        text("Done."),
      ]),
    });
    await using project = await createTempProject();
    await Deno.remove(project.workspace);
    await Deno.symlink(`${home}/project`, project.workspace);
    await Deno.writeTextFile(`${home}/provider.json`, JSON.stringify(provider(server.url)));
    await Deno.symlink(`${home}/provider.json`, `${project.dir}/provider.json`);
    const result = await project.run(["-p", "take notes"], { env: ENV });
    assertEquals([result.code, result.stdout], [0, "Done.\n"], result.stderr);
    assertEquals(await Deno.readTextFile(`${home}/project/notes.txt`), "hello\n");
    const [wrote, read, ran, leak, up, absolute] = toolResults(
      server.requests.at(-1)?.body?.messages,
    );
    assertEquals([wrote, read], [`Wrote 6 bytes to "notes.txt" (new file)`, "hello\n"]);
    assertStringIncludes(ran ?? "", `hello\n${project.workspace}\n`);
    assertStringIncludes(ran ?? "", "hooks read-only\n");
    assertEquals(await Deno.readTextFile(`${home}/project/made.txt`), "made\n");
    assertEquals(await Array.fromAsync(Deno.readDir(`${home}/project/.git/hooks`)), []);
    assertEquals(leak, `Error: Cannot access "leak.txt": path escapes the workspace`);
    assertEquals(up, `Error: Cannot access "../secret.txt": path escapes the workspace`);
    assertEquals(absolute, "hello\n");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("powercode refuses a FIFO the model made with bash, without hanging", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    handler: sequence([
      toolCall("bash", { command: "mkfifo pipe && echo made" }),
      toolCall("read_file", { path: "pipe" }),
      toolCall("edit_file", { path: "pipe", old_string: "a", new_string: "b" }),
      text("Could not read it."),
    ]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const result = await project.run(["-p", "read the pipe"], { env: ENV });
  assertEquals([result.code, result.stdout], [0, "Could not read it.\n"], result.stderr);
  const [made, read, edit] = toolResults(server.requests.at(-1)?.body?.messages);
  assertStringIncludes(made ?? "", "made");
  const refusal = (action: string) =>
    `Error: Cannot ${action} "pipe": it is a FIFO (named pipe), not a regular file; only ` +
    "regular files can be read or changed";
  assertEquals([read, edit], [refusal("read"), refusal("edit")]);
});
