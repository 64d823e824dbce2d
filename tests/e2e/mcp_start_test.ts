/**
 * MCP servers starting in the background on a terminal (the REPL in-process, the fake stdio
 * server in the real sandbox): the prompt comes at once, `/mcp` says the server is starting,
 * the first request waits for it (the status line names it) and carries its tools; a server
 * that does not start within its bound is named and the request goes without it.
 */
import { assert, assertEquals } from "@std/assert";
import { KEYS } from "../support/fake_terminal.ts";
import { fakeServerEntry, writeMcpConfig } from "../support/mcp.ts";
import { skipWithout } from "../support/programs.ts";
import { openReplDouble, type ReplDouble } from "../support/repl_double.ts";

/** The double's screen drops trailing spaces: the empty prompt is the row ">". */
const screenHas = (text: string) => (lines: string[]) => lines.some((line) => line.includes(text));

/** A temp dir whose `.powercode/mcp.json` has the fake server as "slow", with `flags`. */
async function openWithServer(
  flags: string[],
  extra: Record<string, unknown> = {},
): Promise<{ repl: ReplDouble; dir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "powercode-mcp-start-" });
  await Deno.mkdir(`${dir}/workspace`);
  await Deno.mkdir(`${dir}/.powercode`);
  await writeMcpConfig(`${dir}/.powercode/mcp.json`, {
    slow: await fakeServerEntry(`${dir}/workspace`, flags, extra),
  });
  const repl = await openReplDouble(["The answer."], {
    dir,
    assemble: () => ({
      mcp: {
        configDir: `${dir}/.powercode`,
        stateDir: `${dir}/.powercode`,
        env: () => undefined,
        version: "0.0.0-test",
        background: true,
      },
    }),
  });
  return { repl, dir };
}

/** `repl.until` with a longer bound: a server in the sandbox starts slowly under load. */
async function eventually(repl: ReplDouble, text: string, what: string): Promise<void> {
  for (let attempt = 1;; attempt++) {
    try {
      return await repl.until(screenHas(text), what);
    } catch (error) {
      if (attempt === 8) throw error;
    }
  }
}

Deno.test({
  name: "a slow MCP server: the prompt comes at once, the first request waits for its tools",
  ignore: skipWithout("bwrap"),
  fn: async () => {
    const { repl, dir } = await openWithServer(["--delay", "1500"]);
    try {
      await repl.until((lines) => lines.includes(">"), "the prompt");
      await repl.type(`/mcp${KEYS.enter}`);
      await repl.until(screenHas("slow · starting"), "/mcp saying the server is starting");
      await repl.type(`hello${KEYS.enter}`);
      await repl.until(screenHas('waiting for MCP server "slow"'), "the status naming the server");
      assertEquals(repl.model.requests.length, 0, "no request before the server is ready");
      await eventually(repl, "The answer.", "the answer");
      const names = repl.model.requests[0]?.tools?.map((tool) => tool.name) ?? [];
      assert(names.includes("mcp__slow__echo"), `the first request's tools: ${names}`);
      assert(repl.lines().some((line) => line.includes("mcp: 1 ready · 8 tools")), "ready line");
      assertEquals(await repl.end(), 0);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "an MCP server late past its bound is named, and the first request goes without it",
  ignore: skipWithout("bwrap"),
  fn: async () => {
    const { repl, dir } = await openWithServer(["--hang"], { timeoutMs: 1000 });
    try {
      await repl.until((lines) => lines.includes(">"), "the prompt");
      await repl.type(`hello${KEYS.enter}`);
      await repl.until(screenHas('waiting for MCP server "slow"'), "the status naming the server");
      await eventually(repl, "The answer.", "the answer");
      assert(
        repl.lines().some((line) =>
          line.includes('MCP server "slow" did not start: it did not answer within 1 s')
        ),
        repl.lines().join("\n"),
      );
      const names = repl.model.requests[0]?.tools?.map((tool) => tool.name) ?? [];
      assert(
        !names.some((name) => name.startsWith("mcp__")),
        `the first request's tools: ${names}`,
      );
      assertEquals(await repl.end(), 0);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "leaving the REPL while an MCP server starts stops the start at once",
  ignore: skipWithout("bwrap"),
  fn: async () => {
    const { repl, dir } = await openWithServer(["--hang"]);
    try {
      await repl.until((lines) => lines.includes(">"), "the prompt");
      const started = Date.now();
      assertEquals(await repl.end(), 0);
      const took = Date.now() - started;
      assert(took < 5000, `the end took ${took} ms, not bounded by the 15 s start`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "MCP servers ready at the idle prompt: their line takes the prompt's row, the prompt with what was typed follows",
  ignore: skipWithout("bwrap"),
  fn: async () => {
    const { repl, dir } = await openWithServer(["--delay", "800"]);
    try {
      await repl.until((lines) => lines.includes(">"), "the prompt");
      await repl.type("half a ta");
      await eventually(repl, "mcp: 1 ready", "the ready line");
      assertEquals(repl.lines(), ["mcp: 1 ready · 8 tools", "> half a ta"]);
      await repl.type(`sk${KEYS.enter}`);
      await eventually(repl, "The answer.", "the answer");
      assertEquals(repl.model.requests[0]?.messages.at(-1), {
        role: "user",
        content: "half a task",
      });
      assertEquals(await repl.end(), 0);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
