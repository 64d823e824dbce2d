import { assertEquals } from "@std/assert";
import { chainLines, readChain } from "../../../src/export/bundle_chain.ts";
import { replayBundle, type ReplayHost } from "../../../src/export/replay.ts";
import type { ToolCall } from "../../../src/core/mod.ts";

const CALL: ToolCall = { id: "c1", name: "ls", arguments: "{}" };

/** A bundle of one task: a file, the call and its result, the tree after it. */
function entries(result: string, tree: Record<string, string>): string[] {
  const records = [
    { type: "task_start", tree: "t0" },
    { type: "message", message: { role: "user", content: "look" } },
    { type: "message", message: { role: "assistant", content: "", toolCalls: [CALL] } },
    { type: "message", message: { role: "tool", toolCallId: "c1", content: result } },
    { type: "task_end", tree: "t1" },
  ].map((record) => ({ type: "record", record }));
  const body = [
    { type: "file", path: "a.txt", mode: 0o644, text: "a\n" },
    ...records,
    { type: "tree", files: tree },
  ];
  const header = { type: "bundle", version: 1, session: "s", entries: body.length + 1 };
  return [header, ...body].map((entry) => JSON.stringify(entry));
}

/** A host whose ls answers `a.txt` and whose tree is `tree`. */
function host(tree: Record<string, string>, put: string[] = []): ReplayHost {
  return {
    put: (entry) => Promise.resolve(void put.push(entry.path)),
    run: () => Promise.resolve({ content: "a.txt", summary: "", isError: false }),
    tree: () => Promise.resolve(tree),
  };
}

Deno.test("replayBundle() reproduces a bundle whose results and trees match, after putting its files", async () => {
  const put: string[] = [];
  const text = await chainLines(entries("a.txt", { "a.txt": "h1" }));
  assertEquals(await replayBundle(text, host({ "a.txt": "h1" }, put)), {
    type: "same",
    entries: 8,
    calls: 1,
    skipped: [],
    trees: 1,
  });
  assertEquals(put, ["a.txt"]);
});

Deno.test("replayBundle() names the entry, the call and the line where a result differs", async () => {
  const text = await chainLines(entries("a.txt\nb.txt", { "a.txt": "h1" }));
  assertEquals(await replayBundle(text, host({ "a.txt": "h1" })), {
    type: "differs",
    entry: 6,
    what: 'tool call c1 (ls {}): the result differs at line 2: recorded "b.txt", ' +
      "replayed (no line)",
  });
});

Deno.test("replayBundle() names the first path where the tree after a task differs", async () => {
  const text = await chainLines(entries("a.txt", { "a.txt": "h1", b: "dir" }));
  assertEquals(await replayBundle(text, host({ "a.txt": "h2" })), {
    type: "differs",
    entry: 8,
    what: 'the tree after the task differs at "a.txt": recorded a file of sha-256 h1…, ' +
      "replayed a file of sha-256 h2…",
  });
});

Deno.test("readChain() breaks at a dropped entry, and replayBundle() at a cut-off tail", async () => {
  const lines = (await chainLines(entries("a.txt", {}))).split("\n").slice(0, -1);
  const dropped = [...lines.slice(0, 3), ...lines.slice(4)].join("\n");
  assertEquals((await readChain(dropped)).broken?.entry, 4);
  const cut = `${lines.slice(0, 5).join("\n")}\n`;
  assertEquals(await replayBundle(cut, host({})), {
    type: "broken",
    entry: 6,
    what: "the bundle ends after 5 of its 8 entries",
  });
});
