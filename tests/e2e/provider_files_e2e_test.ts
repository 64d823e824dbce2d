import { assertEquals } from "@std/assert";
import { createTempProject } from "../support/project.ts";
import { text, toolCalls } from "../support/scripts.ts";
import { allSessionText, ENV, provider, startScriptedServer } from "../support/sessions.ts";

/** An old key left in the top-level provider.json while the personal copy is in use. */
const OLD_KEY = "sk-old-top-level-key-1234";

Deno.test("powercode masks the top-level provider.json from bash and redacts its key when .powercode/provider.json is in use", async () => {
  await using scripted = await startScriptedServer();
  // Outside /tmp: the sandbox has its own /tmp, where ../provider.json would not be seen anyway.
  await using project = await createTempProject({ parent: "/var/tmp" });
  await project.writeProvider({ ...provider(scripted.server.url), apiKey: OLD_KEY });
  await Deno.mkdir(`${project.dir}/.powercode`);
  await Deno.writeTextFile(
    `${project.dir}/.powercode/provider.json`,
    JSON.stringify(provider(scripted.server.url)),
  );
  const requests = scripted.play([
    toolCalls([{ id: "b", name: "bash", args: { command: "cat ../provider.json; echo END" } }]),
    text(`The old key is ${OLD_KEY}.`),
  ]);
  const result = await project.run(
    ["--provider", ".powercode/provider.json", "-p", "find keys"],
    { env: ENV },
  );
  assertEquals(result.code, 0, result.stderr);
  const tool = requests()[1]?.body?.messages.find((message) => message.role === "tool");
  // The file is masked by /dev/null on a nodev mount: reading it fails.
  assertEquals(tool?.content, "cat: ../provider.json: Permission denied\nEND\nexit code 0");
  assertEquals(result.stdout, "The old key is [redacted].\n");
  assertEquals((await allSessionText(project.dir)).includes(OLD_KEY), false);
});
