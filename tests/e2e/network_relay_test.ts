/**
 * The network by domain where the other tests do not reach: as an ordinary user (`nobody`,
 * through `setpriv`), and with the relay a compiled powercode runs (`main.ts --sandbox-relay`
 * under the flags of the `compile` task in deno.json).
 *
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import config from "../../deno.json" with { type: "json" };
import { parseHostPattern } from "../../src/core/mod.ts";
import { NetworkGate, Sandbox } from "../../src/sandbox/mod.ts";
import { skipWithout } from "../support/programs.ts";
import { createSandboxProject, isRoot } from "../support/sandbox_project.ts";

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

const root = await isRoot();

Deno.test({
  name:
    "network as an ordinary user: an allowed loopback host answers through the proxy, a host not on the list is refused by name",
  ignore: skipWithout("bwrap", "curl", "setpriv"),
  fn: async () => {
    await using project = await createSandboxProject();
    await using server = startServer();
    const command = `id -u; curl -sS http://127.0.0.1:${server.port}/; ` +
      "curl -sS http://refused.powercode.test/ 2>&1; " +
      `curl -sS --noproxy '*' http://127.0.0.1:${server.port}/ 2>/dev/null || echo direct-refused`;
    // As root the child becomes nobody; an ordinary user runs it as itself.
    const { output, code } = await project.runInChild(command, {
      asNobody: root,
      allowHosts: ["127.0.0.1"],
    });
    assertEquals(code, 0, output);
    assertEquals(output.split("\n")[0], root ? "65534" : String(Deno.uid()), output);
    assertStringIncludes(output, "hello from loopback\n");
    assertStringIncludes(
      output,
      'powercode refused the connection to "refused.powercode.test:80": the host is not in ' +
        "network.allow",
    );
    assertStringIncludes(output, "direct-refused\n");
    assertEquals(server.requests(), 1);
  },
});

/** The flags of deno.json's `compile` task: what a compiled powercode runs under. */
function compileFlags(): string[] {
  const words = config.tasks.compile.split(" ");
  assert(words.includes("main.ts"), config.tasks.compile);
  return words.filter((word) => word.startsWith("--allow-") || word === "--no-prompt");
}

Deno.test({
  name:
    "the compiled binary's relay: main.ts --sandbox-relay under the compile task's flags carries an allowed request and the proxy refuses the rest",
  ignore: skipWithout("bwrap", "curl"),
  fn: async () => {
    await using server = startServer();
    const repo = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
    const info = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
    const { denoDir } = JSON.parse(new TextDecoder().decode(info.stdout));
    // Inside the sandbox the relay has no network to fetch with: it reads this cache.
    const relay = [
      "/usr/bin/env",
      `DENO_DIR=${denoDir}`,
      Deno.execPath(),
      ...["run", "--config", `${repo}/deno.json`, `--lock=${repo}/deno.lock`, "--cached-only"],
      ...compileFlags(),
      `${repo}/main.ts`,
      "--sandbox-relay",
    ];
    const workspace = await Deno.makeTempDir({ dir: "/var/tmp", prefix: "powercode-relay-" });
    try {
      const patterns = [parseHostPattern("127.0.0.1")].filter((p) => typeof p !== "string");
      const sandbox = new Sandbox(workspace, "bwrap", {
        network: { gate: new NetworkGate(patterns), relay },
      });
      const result = await sandbox.run(
        `curl -sS http://127.0.0.1:${server.port}/; curl -sS http://other.powercode.test/`,
        { timeoutMs: 60_000, signal: new AbortController().signal },
      );
      assertStringIncludes(result.output.text, "hello from loopback\n");
      assertStringIncludes(
        result.output.text,
        'refused the connection to "other.powercode.test:80"',
      );
      assertEquals(result.connections, [
        { host: "127.0.0.1", port: server.port, allowed: true },
        { host: "other.powercode.test", port: 80, allowed: false },
      ]);
    } finally {
      await Deno.remove(workspace, { recursive: true });
    }
  },
});
