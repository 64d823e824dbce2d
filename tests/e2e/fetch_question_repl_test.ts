/**
 * The question before a fetch of a host not on `network.allow`, answered at the REPL driven
 * in-process: yes allows that one call, always saves the host to the user's settings file and
 * allows it for the run, no refuses with the host's name and opens no connection.
 *
 * @module
 */
import { assert, assertEquals } from "@std/assert";
import type { ApprovalSetup } from "../../src/app/assemble.ts";
import { KEYS } from "../support/fake_terminal.ts";
import { openReplDouble, type ReplDouble } from "../support/repl_double.ts";
import { call } from "../support/scripted_model.ts";

const screenHas = (text: string) => (lines: string[]) => lines.some((line) => line.includes(text));

const autoMode = (dir: string): ApprovalSetup => ({
  mode: "auto",
  rules: { allow: [], ask: [], deny: [] },
  files: { user: `${dir}/config/settings.json` },
});

/** The tool results the model received, in order. */
function results(repl: ReplDouble): string[] {
  const last = repl.model.requests.at(-1)?.messages ?? [];
  return last.flatMap((message) => message.role === "tool" ? [message.content] : []);
}

/** A loopback page that counts its requests. */
function servePage(): { url: string; requests: () => number } & AsyncDisposable {
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => {
    requests++;
    return new Response("the page", { headers: { "content-type": "text/plain" } });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/docs`,
    requests: () => requests,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

Deno.test("fetch question REPL: yes allows one call; the next fetch of the host asks again, no refuses it", async () => {
  await using page = servePage();
  const repl = await openReplDouble([
    { toolCalls: [call("c1", "fetch", { url: page.url })] },
    { toolCalls: [call("c2", "fetch", { url: page.url })] },
    "Done.",
  ], { approval: autoMode, undo: false });
  await repl.type(`read the docs${KEYS.enter}`);
  await repl.until(screenHas(`? fetch asks to run: ${page.url}`), "the question");
  assert(repl.lines().some((line) => line.includes('host "127.0.0.1" is not on network.allow')));
  await repl.type(`y${KEYS.enter}`);
  await repl.until(
    (lines) => lines.filter((line) => line.includes("? fetch asks to run")).length === 2,
    "the second question",
  );
  await repl.type(`n${KEYS.enter}`);
  await repl.until(screenHas("Done."), "the answer");
  const [first, second] = results(repl);
  assert(first?.includes("the page"), first);
  assertEquals(second, 'Error: Cannot run fetch: the user said no to host "127.0.0.1"');
  assertEquals(page.requests(), 1);
  assertEquals(await repl.end(), 0);
});

Deno.test("fetch question REPL: always saves the host to network.allow and the next fetch runs unasked", async () => {
  await using page = servePage();
  const repl = await openReplDouble([
    { toolCalls: [call("c1", "fetch", { url: page.url })] },
    { toolCalls: [call("c2", "fetch", { url: `${page.url}/more` })] },
    "Done.",
  ], { approval: autoMode, undo: false });
  await Deno.mkdir(`${repl.dir}/config`);
  await Deno.writeTextFile(
    `${repl.dir}/config/settings.json`,
    '{"network": {"allow": ["a.test"]}}',
  );
  await repl.type(`read the docs${KEYS.enter}`);
  await repl.until(screenHas("? fetch asks to run"), "the question");
  await repl.type(`a${KEYS.enter}`);
  await repl.until(screenHas("Done."), "the answer");
  assertEquals(repl.lines().filter((line) => line.includes("? fetch asks to run")).length, 1);
  assertEquals(JSON.parse(await Deno.readTextFile(`${repl.dir}/config/settings.json`)), {
    network: { allow: ["a.test", "127.0.0.1"] },
  });
  assertEquals(results(repl).map((result) => result.includes("the page")), [true, true]);
  assertEquals(page.requests(), 2);
  assertEquals(await repl.end(), 0);
});
