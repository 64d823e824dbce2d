/**
 * "Asking for more", answered at the REPL driven in-process: a command that names a host
 * (`need_hosts`) or a directory outside the roots (`need_dirs`) asks once; "yes" gives that
 * command, and only it, the host through the proxy or the directory writable; "always" saves
 * the shown `net(…)` rule; "no" with a reason is the tool's result. A preview lists the hosts
 * the command tried, all refused.
 *
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import type { ApprovalSetup } from "../../src/app/assemble.ts";
import { KEYS } from "../support/fake_terminal.ts";
import { skipWithout } from "../support/programs.ts";
import { openReplDouble, type ReplDouble } from "../support/repl_double.ts";
import { call } from "../support/scripted_model.ts";
import { treeState } from "../support/tree_state.ts";

const screenHas = (text: string) => (lines: string[]) => lines.some((line) => line.includes(text));

const withMode = (mode: ApprovalSetup["mode"]) => (dir: string): ApprovalSetup => ({
  mode,
  rules: { allow: [], ask: [], deny: [] },
  files: { user: `${dir}/config/settings.json` },
});

/** The tool results the model received, in order. */
function results(repl: ReplDouble): string[] {
  const last = repl.model.requests.at(-1)?.messages ?? [];
  return last.flatMap((message) => message.role === "tool" ? [message.content] : []);
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

/** Waits for a question, answers it with `line`, and waits until `after` is on screen. */
async function answer(repl: ReplDouble, line: string, after: string) {
  await repl.until(screenHas("? bash asks to run"), "the question");
  await repl.type(`${line}${KEYS.enter}`);
  await repl.until(screenHas(after), after);
}

/** Screen waits are long enough for a sandbox that starts its network relay. */
async function untilLong(repl: ReplDouble, text: string) {
  for (let tries = 0; tries < 10; tries++) {
    try {
      return await repl.until(screenHas(text), text);
    } catch {
      // the relay's deno may take a few seconds on a loaded machine
    }
  }
  await repl.until(screenHas(text), text);
}

Deno.test({
  name:
    "needs: in auto, a need_hosts command asks once; yes reaches the host through the proxy, and only that command",
  ignore: skipWithout("bwrap", "curl"),
  fn: async () => {
    await using server = startServer();
    const url = `http://127.0.0.1:${server.port}/`;
    const repl = await openReplDouble([
      {
        toolCalls: [call("c1", "bash", { command: `curl -sS ${url}`, need_hosts: ["127.0.0.1"] })],
      },
      { toolCalls: [call("c2", "bash", { command: `curl -sS ${url} || echo no-network` })] },
      "Fetched.",
    ], { height: 40 });
    await repl.type(`fetch${KEYS.enter}`);
    await repl.until(screenHas("? bash asks to run: curl"), "the question");
    const screen = repl.lines().join("\n");
    assertStringIncludes(screen, "the command asks for more than the sandbox gives");
    assertStringIncludes(screen, "and for this command only: network to 127.0.0.1");
    assertStringIncludes(screen, "a always (saves allow net(127.0.0.1))");
    await repl.type(`y${KEYS.enter}`);
    await untilLong(repl, "Fetched.");
    const [first = "", second = ""] = results(repl);
    assertStringIncludes(first, "hello from loopback");
    assertStringIncludes(first, `network: allowed 127.0.0.1:${server.port}`);
    assertStringIncludes(second, "no-network");
    assertEquals(server.requests(), 1, "the second command had no network");
    const asked = repl.lines().filter((line) => line.includes("? bash asks to run"));
    assertEquals(asked.length, 1);
    assertEquals(await repl.end(), 0);
  },
});

Deno.test({
  name:
    "needs: always saves the shown net(…) rule to the user's settings, and the next call with that need runs unasked",
  ignore: skipWithout("bwrap", "curl"),
  fn: async () => {
    await using server = startServer();
    const command = `curl -sS http://127.0.0.1:${server.port}/`;
    const repl = await openReplDouble([
      { toolCalls: [call("c1", "bash", { command, need_hosts: ["127.0.0.1"] })] },
      { toolCalls: [call("c2", "bash", { command, need_hosts: ["127.0.0.1"] })] },
      "Twice.",
    ], { approval: withMode("auto") });
    await repl.type(`fetch twice${KEYS.enter}`);
    await answer(repl, "a", "? bash asks to run");
    await untilLong(repl, "Twice.");
    assertEquals(repl.lines().filter((line) => line.includes("? bash asks to run")).length, 1);
    assertEquals(JSON.parse(await Deno.readTextFile(`${repl.dir}/config/settings.json`)), {
      permissions: { allow: ["net(127.0.0.1)"] },
    });
    assertEquals(server.requests(), 2);
    for (const result of results(repl)) assertStringIncludes(result, "hello from loopback");
    assertEquals(await repl.end(), 0);
  },
});

Deno.test({
  name: "needs: no with a reason is the tool result, and the host is never reached",
  ignore: skipWithout("bwrap", "curl"),
  fn: async () => {
    await using server = startServer();
    const repl = await openReplDouble([
      {
        toolCalls: [
          call("c1", "bash", {
            command: `curl -sS http://127.0.0.1:${server.port}/ > got.txt`,
            need_hosts: ["127.0.0.1"],
          }),
        ],
      },
      "Understood.",
    ]);
    const before = await treeState(repl.workspace);
    await repl.type(`fetch${KEYS.enter}`);
    await answer(repl, "n use the vendored copy", "Understood.");
    assertEquals(results(repl), [
      "Error: Cannot run bash: the user said no: use the vendored copy",
    ]);
    assertEquals(server.requests(), 0);
    assertEquals(await treeState(repl.workspace), before);
    assertEquals(await repl.end(), 0);
  },
});

Deno.test({
  name:
    "needs: need_dirs binds a directory outside the roots writable for that command only; powercode's own are refused",
  ignore: skipWithout("bwrap"),
  fn: async () => {
    const outside = await Deno.makeTempDir({ prefix: "powercode-outside-" });
    try {
      const repl = await openReplDouble([
        {
          toolCalls: [
            call("c1", "bash", { command: `echo cached > ${outside}/a.txt`, need_dirs: [outside] }),
          ],
        },
        {
          toolCalls: [call("c2", "bash", {
            command: `echo again > ${outside}/b.txt 2>&1 || echo read-only`,
          })],
        },
        { toolCalls: [call("c3", "bash", { command: "true", need_dirs: ["/proc"] })] },
        "Written.",
      ]);
      await repl.type(`cache${KEYS.enter}`);
      await repl.until(screenHas(`and for this command only: writing ${outside}`), "the need");
      await repl.type(`y${KEYS.enter}`);
      await repl.until(screenHas("Written."), "the answer");
      assertEquals(await Deno.readTextFile(`${outside}/a.txt`), "cached\n");
      const [, second = "", third = ""] = results(repl);
      assertStringIncludes(second, "read-only");
      assertEquals(
        third,
        'Error: Cannot run bash: need_dirs[0]: "/proc" is the system\'s, never granted',
      );
      assertEquals([...Deno.readDirSync(outside)].map((entry) => entry.name), ["a.txt"]);
      assertEquals(await repl.end(), 0);
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "preview: the hosts a previewed command tried are listed, each refused, even one it asked for",
  ignore: skipWithout("bwrap", "curl"),
  fn: async () => {
    await using server = startServer();
    const command =
      `curl -sS http://pkg.powercode.test/x; curl -sS http://127.0.0.1:${server.port}/`;
    const repl = await openReplDouble([
      { toolCalls: [call("c1", "bash", { command, need_hosts: ["127.0.0.1"] })] },
      "Kept.",
    ], { approval: withMode("ask"), height: 40 });
    await repl.type(`try${KEYS.enter}`);
    await repl.until(screenHas("p preview"), "the question with preview");
    await repl.type(`p${KEYS.enter}`);
    await untilLong(repl, "k keep · r revert");
    assertStringIncludes(
      repl.lines().join("\n"),
      `hosts tried (refused): pkg.powercode.test:80, 127.0.0.1:${server.port}`,
    );
    assertEquals(server.requests(), 0, "nothing got through during the preview");
    await repl.type(`k${KEYS.enter}`);
    await repl.until(screenHas("Kept."), "the answer");
    const [result = ""] = results(repl);
    assertStringIncludes(result, "network: refused pkg.powercode.test:80");
    assert(!result.includes("hello from loopback"), result);
    assertEquals(await repl.end(), 0);
  },
});
