/**
 * Issue 36.8: in plan mode an MCP tool its server annotates `readOnlyHint` runs; another is
 * refused with a reason that does not claim the server runs outside the sandbox.
 */
import { assertEquals, assertStringIncludes } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { fakeServerEntry, writeMcpConfig } from "../support/mcp.ts";
import { createTempProject } from "../support/project.ts";
import { sequence, text, toolCalls } from "../support/scripts.ts";
import { ENV, provider } from "../support/sessions.ts";

const REFUSED = "Error: Cannot run mcp__fake__fail: plan mode is on, and this tool could change " +
  "files: plan mode makes only bash's workspace read-only, and the tool does not declare that " +
  "it only reads; use bash (read-only in plan mode), or ask the user to leave plan mode " +
  "(/plan off) to make changes";

Deno.test("in plan mode a read-only MCP tool runs and another is refused, saying why", async () => {
  await using server = await startFakeServer({
    handler: sequence([
      toolCalls([
        { name: "mcp__fake__echo", args: { text: "looked" }, id: "call_a" },
        { name: "mcp__fake__fail", args: {}, id: "call_b" },
      ]),
      text("Planned."),
    ]),
  });
  await using project = await createTempProject();
  await Deno.mkdir(`${project.dir}/.powercode`);
  await writeMcpConfig(`${project.dir}/.powercode/mcp.json`, {
    fake: await fakeServerEntry(project.workspace),
  });
  await project.writeProvider(provider(server.url));
  const result = await project.run(["--plan", "-p", "plan it"], { env: ENV });
  assertEquals(result.code, 0, result.stderr);
  const messages = server.requests.at(-1)?.body?.messages ?? [];
  const results = messages.flatMap((message) =>
    message.role === "tool" ? [[message.tool_call_id, message.content]] : []
  );
  assertEquals(results, [["call_a", "looked"], ["call_b", REFUSED]]);
  assertStringIncludes(result.stderr, "✗ Cannot run mcp__fake__fail: plan mode is on");
  assertEquals(result.stderr.includes("outside the sandbox"), false, result.stderr);
});
