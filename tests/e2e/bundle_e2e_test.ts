/**
 * End-to-end: `powercode export --bundle FILE` and `powercode replay FILE` through
 * `deno task start` (the real permission set) after a session against the strict fake
 * server: a ten-call session replays to the same results and trees, an edited entry is
 * reported at that entry, and a bundle that would hold the provider key is refused.
 *
 * @module
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { chainLines } from "../../src/export/bundle_chain.ts";
import { skipWithout } from "../support/programs.ts";
import { createTempProject, type TempProject } from "../support/project.ts";
import { text, toolCall } from "../support/scripts.ts";
import { ENV, KEY, provider, startScriptedServer } from "../support/sessions.ts";
import { treeState } from "../support/tree_state.ts";

const BUNDLE = ".powercode/session.bundle";

/** Ten tool calls over three tasks: writes, edits, bash, reads and searches. */
const FIRST_TWO = [
  toolCall("read_file", { path: "a.txt" }),
  toolCall("edit_file", { path: "a.txt", old_string: "beta", new_string: "BETA" }),
  toolCall("bash", { command: "printf 'new\\n' > b.txt && mkdir -p out/deep && readlink to-a" }),
  toolCall("ls", { path: "." }),
  text("One."),
  toolCall("write_file", { path: "docs/two.md", content: "two\n" }),
  toolCall("grep", { pattern: "BETA" }),
  toolCall("bash", { command: "cat b.txt docs/two.md notes.txt | wc -l" }),
  text("Two."),
];
const THIRD = [
  toolCall("bash", { command: "rm b.txt && echo gone" }),
  toolCall("glob", { pattern: "**/*.md" }),
  toolCall("edit_file", { path: "notes.txt", old_string: "by hand", new_string: "by agent" }),
  text("Three."),
];

/** A project after the ten-call session, with a file edited by hand between tasks. */
async function session(project: TempProject, url: string): Promise<void> {
  await project.writeProvider(provider(url));
  const ws = project.workspace;
  await Deno.writeTextFile(`${ws}/a.txt`, "alpha\nbeta\n");
  await Deno.chmod(`${ws}/a.txt`, 0o600);
  await Deno.symlink("a.txt", `${ws}/to-a`);
  await Deno.mkdir(`${ws}/docs`);
  await Deno.writeTextFile(`${ws}/docs/readme.md`, "# docs\n");
  await Deno.writeFile(`${ws}/blob.bin`, new Uint8Array([0, 255, 1, 254]));
  await Deno.writeTextFile(`${ws}/notes.txt`, "first\n");
  const run1 = await project.run([], { stdin: "task one\ntask two\n", env: ENV });
  assertEquals(run1.code, 0, run1.stderr);
  await Deno.writeTextFile(`${ws}/notes.txt`, "written by hand\n");
}

Deno.test({
  name:
    "powercode replay reproduces a bundle of a ten-call session byte for byte, in a scratch copy",
  ignore: skipWithout("bwrap"),
  fn: async () => {
    await using fake = await startScriptedServer();
    await using project = await createTempProject();
    fake.play(FIRST_TWO);
    await session(project, fake.server.url);
    fake.play(THIRD);
    const run2 = await project.run(["-c"], { stdin: "task three\n", env: ENV });
    assertEquals(run2.code, 0, run2.stderr);
    const bundled = await project.run(["export", "--bundle", BUNDLE], { env: ENV });
    assertEquals(bundled.code, 0, bundled.stderr);
    assertMatch(
      bundled.stdout,
      /^Bundled session \S+ to \.powercode\/session\.bundle: 3 tasks, \d+ entries, \d+ bytes\n$/,
    );
    const text = await Deno.readTextFile(`${project.dir}/${BUNDLE}`);
    assert(text.split("\n").slice(0, -1).every((line) => /^[0-9a-f]{64} \{/.test(line)));
    assertEquals((await Deno.stat(`${project.dir}/${BUNDLE}`)).mode! & 0o777, 0o600);
    const before = await treeState(project.workspace);
    const replayed = await project.run(["replay", BUNDLE], { env: ENV });
    assertEquals([replayed.code, replayed.stderr], [0, ""], replayed.stdout);
    assertMatch(
      replayed.stdout,
      /^Reproduced byte for byte: 10 tool calls and 3 task trees \(\d+ entries\)\n$/,
    );
    assertEquals(await treeState(project.workspace), before, "the workspace is not touched");
    const scratch = [...Deno.readDirSync(`${project.dir}/.powercode/replay`)];
    assertEquals(scratch, [], "the scratch copy is removed");
  },
});

Deno.test({
  name:
    "powercode replay reports an edited entry at that entry: a broken chain, or a result that differs",
  ignore: skipWithout("bwrap"),
  fn: async () => {
    await using fake = await startScriptedServer();
    await using project = await createTempProject();
    fake.play(FIRST_TWO);
    await session(project, fake.server.url);
    assertEquals((await project.run(["export", "--bundle", BUNDLE], { env: ENV })).code, 0);
    const path = `${project.dir}/${BUNDLE}`;
    const lines = (await Deno.readTextFile(path)).split("\n").slice(0, -1);
    // The result of read_file a.txt: the first tool result.
    const at = lines.findIndex((line) => line.includes('"role":"tool"'));
    assert(lines[at]?.includes("alpha"));
    const edited = [...lines];
    edited[at] = lines[at]!.replace("alpha", "ALPHA");
    await Deno.writeTextFile(path, `${edited.join("\n")}\n`);
    const broken = await project.run(["replay", BUNDLE], { env: ENV });
    assertEquals(broken.code, 1);
    assertEquals(
      broken.stdout,
      `Broken at entry ${at + 1}: its hash does not chain: the entry, or one before it, ` +
        "was changed\n",
    );
    // The same edit with every hash after it made again: the replay itself finds it.
    const bodies = edited.map((line) => line.slice(65));
    await Deno.writeTextFile(path, await chainLines(bodies));
    const differs = await project.run(["replay", BUNDLE], { env: ENV });
    assertEquals(differs.code, 1);
    assertMatch(
      differs.stdout,
      new RegExp(`^Differs at entry ${at + 1}: tool call \\S+ `),
    );
    assertStringIncludes(
      differs.stdout,
      '(read_file {"path":"a.txt"}): the result differs at line 1: recorded "ALPHA", ' +
        'replayed "alpha"\n',
    );
  },
});

Deno.test("powercode export --bundle refuses a session whose workspace holds the provider key, naming the entry", async () => {
  await using fake = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(fake.server.url));
  await Deno.writeTextFile(`${project.workspace}/env.txt`, `KEY=${KEY}\n`);
  fake.play([text("Fine.")]);
  assertEquals((await project.run([], { stdin: "look\n", env: ENV })).code, 0);
  const refused = await project.run(["export", "--bundle", BUNDLE], { env: ENV });
  assertEquals(refused.code, 1);
  assertEquals(
    refused.stderr,
    `powercode: Cannot bundle to "${BUNDLE}": entry 2 (the file "env.txt") holds an API key ` +
      "or URL credential of a provider file; nothing was written\n",
  );
  assertEquals(await Deno.stat(`${project.dir}/${BUNDLE}`).catch(() => undefined), undefined);
});

Deno.test({
  name:
    "powercode replay reproduces a session with an /undo: the branch it left is not replayed, its files are put back",
  ignore: skipWithout("bwrap"),
  fn: async () => {
    await using fake = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(fake.server.url));
    await Deno.writeTextFile(`${project.workspace}/a.txt`, "alpha\n");
    fake.play([
      toolCall("write_file", { path: "a.txt", content: "one\n" }),
      text("One."),
      toolCall("bash", { command: "echo two >> a.txt && touch gone.txt" }),
      text("Two."),
      toolCall("read_file", { path: "a.txt" }),
      text("Three."),
    ]);
    const run = await project.run([], {
      stdin: "task one\ntask two\n/undo\ntask three\n",
      env: ENV,
    });
    assertEquals(run.code, 0, run.stderr);
    assertEquals((await project.run(["export", "--bundle", BUNDLE], { env: ENV })).code, 0);
    const bundle = await Deno.readTextFile(`${project.dir}/${BUNDLE}`);
    assert(!bundle.includes("gone.txt"), "the undone task is not on the bundle's branch");
    const replayed = await project.run(["replay", BUNDLE], { env: ENV });
    assertEquals([replayed.code, replayed.stderr], [0, ""], replayed.stdout);
    assertMatch(replayed.stdout, /^Reproduced byte for byte: 2 tool calls and 2 task trees /);
  },
});
