import { assertEquals, assertStringIncludes } from "@std/assert";
import { createTempProject } from "../support/project.ts";
import { text } from "../support/scripts.ts";
import { allSessionText, ENV, provider, startScriptedServer } from "../support/sessions.ts";

Deno.test("powercode -p prints an answer's escape sequences visibly; the session keeps them as sent", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  // A window title (OSC), a screen clear (CSI), a carriage return over the line, a C1 CSI.
  const answer = "Done.\x1b]0;pwned\x07 \x1b[2J\rHidden \x9b31m end";
  scripted.play([text(answer)]);
  const result = await project.run(["-p", "hi"], { env: ENV });
  assertEquals(result.code, 0, result.stderr);
  assertEquals(result.stdout, "Done.^[]0;pwned^G ^[[2J^MHidden \\x9b31m end\n");
  assertStringIncludes(await allSessionText(project.dir), JSON.stringify(answer));
});
