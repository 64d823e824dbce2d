/**
 * End-to-end: the user's setup in project mode, through the installed command in a temp
 * home, against the fake server: the instruction files from the user's directory and from
 * the first root down to where powercode was started, and the user's own commands and
 * skills, read under the computed permission set.
 *
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { type ChatMessage, startFakeServer } from "../support/fake_server.ts";
import { createInstalledHome } from "../support/installed.ts";
import { sequence, text, toolCall } from "../support/scripts.ts";
import { ENV, KEY, provider } from "../support/sessions.ts";

async function write(path: string, content: string): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, content);
}

function contentOf(message: ChatMessage | undefined): string {
  return typeof message?.content === "string" ? message.content : "";
}

Deno.test("cd app/pkg && powercode -C PROJECT reads the user's AGENTS.md, then the root's, app/CLAUDE.md and app/pkg/AGENTS.md, in that order; the user's commands and skills work", async () => {
  await using installed = await createInstalledHome();
  const { home, project } = installed;
  const config = `${home}/.config/powercode`;
  await write(`${config}/AGENTS.md`, "USER-RULES\n");
  await write(`${project}/AGENTS.md`, "ROOT-RULES\n");
  await write(`${project}/app/CLAUDE.md`, "APP-CLAUDE-RULES\n");
  await write(`${project}/app/pkg/AGENTS.md`, "PKG-RULES\n");
  await write(`${project}/app/pkg/CLAUDE.md`, "NOT-READ\n");
  await write(`${project}/other/AGENTS.md`, "OTHER-NOT-READ\n");
  await write(`${config}/commands/hello.md`, "---\ndescription: greet\n---\nSay hello to $1.\n");
  await write(
    `${config}/skills/mine/SKILL.md`,
    "---\nname: mine\ndescription: The user's own skill\n---\nMINE-BODY\n",
  );
  await using server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    handler: sequence([text("Hello."), toolCall("skill", { name: "mine" }), text("Read.")]),
  });
  await installed.writeProvider(provider(server.url));
  const result = await installed.run(["-C", project], {
    cwd: `${project}/app/pkg`,
    stdin: "/hello Ada\nuse my skill\n",
    env: ENV,
  });
  assertEquals(result.code, 0, result.stderr);
  const [first, , third] = server.requests;
  const system = contentOf(first?.body?.messages[0]);
  const order = ["USER-RULES", "ROOT-RULES", "APP-CLAUDE-RULES", "PKG-RULES"].map((rules) =>
    system.indexOf(rules)
  );
  assert(order.every((at, index) => at > 0 && at > (order[index - 1] ?? 0)), system);
  assert(!system.includes("NOT-READ"), system);
  assertStringIncludes(
    system,
    "# Project instructions (app/CLAUDE.md, for work in app/)\n\nAPP-CLAUDE-RULES\n",
  );
  assertStringIncludes(system, `- mine: The user's own skill (${config}/skills/mine/SKILL.md)`);
  assertEquals(contentOf(first?.body?.messages.at(-1)), "Say hello to Ada.");
  const results = third?.body?.messages.filter((message) => message.role === "tool") ?? [];
  assertStringIncludes(contentOf(results.at(-1)), "MINE-BODY");
  assertStringIncludes(contentOf(results.at(-1)), "the tools and bash cannot reach its files");
});
