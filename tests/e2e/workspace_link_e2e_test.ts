/**
 * End-to-end: `workspace` as a symbolic link with an absolute target, as the README writes it
 * (`ln -s ~/src/myproject workspace`), with the checkout outside /tmp (issue 35, item 11):
 * bash and the file tools work on the target, and the git guard still holds.
 */
import { assertEquals, assertStringIncludes } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { createTempProject } from "../support/project.ts";
import { sequence, text, toolCall } from "../support/scripts.ts";
import { ENV, KEY, provider } from "../support/sessions.ts";

Deno.test("powercode runs bash in a workspace/ linked to an absolute path outside /tmp", async () => {
  const target = await Deno.realPath(
    await Deno.makeTempDir({ dir: "/var/tmp", prefix: "powercode_target_" }),
  );
  try {
    await Deno.mkdir(`${target}/.git/hooks`, { recursive: true });
    await Deno.writeTextFile(`${target}/notes.txt`, "hello\n");
    await using server = await startFakeServer({
      model: "fake-model",
      apiKey: KEY,
      handler: sequence([
        toolCall("bash", {
          command: "cat notes.txt; pwd; echo made > made.txt; " +
            "(echo evil > .git/hooks/pre-commit) 2>/dev/null || echo hooks read-only",
        }),
        text("Done."),
      ]),
    });
    await using project = await createTempProject({ parent: "/var/tmp" });
    await Deno.remove(project.workspace);
    await Deno.symlink(target, project.workspace);
    await project.writeProvider(provider(server.url));
    const result = await project.run(["-p", "take notes"], { env: ENV });
    assertEquals([result.code, result.stdout], [0, "Done.\n"], result.stderr);
    const ran = (server.requests.at(-1)?.body?.messages ?? [])
      .filter((message) => message.role === "tool").map((message) => String(message.content));
    assertStringIncludes(ran[0] ?? "", `hello\n${project.workspace}\nhooks read-only\n`);
    assertEquals(await Deno.readTextFile(`${target}/made.txt`), "made\n");
    assertEquals(await Array.fromAsync(Deno.readDir(`${target}/.git/hooks`)), []);
  } finally {
    await Deno.remove(target, { recursive: true });
  }
});
