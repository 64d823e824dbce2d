/**
 * End-to-end through the installed command (project mode) and the fake server: a bash call
 * that asks for a host (`need_hosts`) in `-p` is refused with the reason and never waits,
 * and a `net(…)` allow rule in the user's settings grants exactly that host to it.
 *
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { type ChatMessage, startFakeServer } from "../support/fake_server.ts";
import { createInstalledHome, type InstalledHome } from "../support/installed.ts";
import { skipWithout } from "../support/programs.ts";
import { sequence, text, toolCall } from "../support/scripts.ts";
import { ENV, KEY, provider } from "../support/sessions.ts";

function toolResults(messages: ChatMessage[] = []): string[] {
  return messages.filter((message) => message.role === "tool").map((m) => String(m.content));
}

/** A plain HTTP server on 127.0.0.1 answering every request, counting them. */
function startServer() {
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    requests++;
    return new Response("hello from loopback\n");
  });
  return {
    port: server.addr.port,
    requests: () => requests,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** One -p run whose model calls bash with `args`; the tool result and the run. */
async function runCall(installed: InstalledHome, args: Record<string, unknown>) {
  await using server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    handler: sequence([toolCall("bash", args), text("Done.")]),
  });
  await installed.writeProvider(provider(server.url));
  const result = await installed.run(["-p", "fetch it"], { env: ENV });
  const [output = ""] = toolResults(server.requests.at(-1)?.body?.messages);
  return { result, output };
}

Deno.test({
  name: "need_hosts in -p: refused with the reason and the rule that would allow it, never waits",
  ignore: skipWithout("bwrap", "curl"),
  fn: async () => {
    await using installed = await createInstalledHome();
    await using server = startServer();
    const { result, output } = await runCall(installed, {
      command: `curl -sS http://127.0.0.1:${server.port}/`,
      need_hosts: [`127.0.0.1:${server.port}`],
    });
    assertEquals([result.code, result.stdout], [0, "Done.\n"], result.stderr);
    assertStringIncludes(
      output,
      "Cannot run bash: the command asks for more than the sandbox gives (it asks for network " +
        `to 127.0.0.1:${server.port}), and nobody can answer in this run`,
    );
    assertStringIncludes(output, `"allow": ["net(127.0.0.1:${server.port})"]`);
    assertEquals(server.requests(), 0);
  },
});

Deno.test({
  name:
    "need_hosts with a net() allow rule in the user's settings: that command reaches the host, a host it did not name stays refused",
  ignore: skipWithout("bwrap", "curl"),
  fn: async () => {
    await using installed = await createInstalledHome();
    await using server = startServer();
    await Deno.mkdir(`${installed.home}/.config/powercode`, { recursive: true });
    await Deno.writeTextFile(
      `${installed.home}/.config/powercode/settings.json`,
      JSON.stringify({ permissions: { allow: ["net(127.0.0.1)"] } }),
    );
    const { result, output } = await runCall(installed, {
      command: `curl -sS http://127.0.0.1:${server.port}/; curl -sS http://other.powercode.test/`,
      need_hosts: ["127.0.0.1"],
    });
    assertEquals([result.code, result.stdout], [0, "Done.\n"], result.stderr);
    assertStringIncludes(output, "hello from loopback\n");
    assertStringIncludes(output, `network: allowed 127.0.0.1:${server.port}`);
    assertStringIncludes(output, "network: refused other.powercode.test:80");
    assertEquals(server.requests(), 1);
    assert(!output.includes("Cannot run bash"), output);
  },
});
