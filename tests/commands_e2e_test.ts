/**
 * End-to-end: slash commands run behind the REPL's error boundary, through
 * `deno task start` on piped stdin in a temp project.
 */
import { assertEquals, assertMatch } from "@std/assert";
import { startFakeServer } from "./support/fake_server.ts";
import { sequence, text } from "./support/scripts.ts";
import { createTempProject } from "./support/project.ts";
import { ENV, provider } from "./support/sessions.ts";

Deno.test("powercode shows a command that throws as one ✗ line and runs the next queued line", async () => {
  await using project = await createTempProject();
  const answers = sequence([text("First."), text("Second.")]);
  await using server = await startFakeServer({
    handler: async (request, index) => {
      // /sessions lists .powercode/sessions/, which is by then a file it cannot list (the
      // open session file lives on, moved with its directory).
      if (index === 0) {
        await Deno.rename(`${project.dir}/.powercode/sessions`, `${project.dir}/.powercode/moved`);
        await Deno.writeTextFile(`${project.dir}/.powercode/sessions`, "");
      }
      return answers(request, index);
    },
  });
  await project.writeProvider(provider(server.url));
  const result = await project.run([], {
    stdin: "first task\n/sessions\nsecond task\n",
    env: ENV,
  });
  assertEquals([result.code, result.stderr], [1, ""]);
  const [first, failure, second, ...rest] = result.stdout.split("\n");
  assertEquals([first, second, rest], ["First.", "Second.", [""]]);
  assertMatch(failure ?? "", /^✗ .*\.powercode\/sessions/);
  assertEquals(server.requests.at(-1)?.body?.messages.slice(1), [
    { role: "user", content: "first task" },
    { role: "assistant", content: "First." },
    { role: "user", content: "second task" },
  ]);
});
