/**
 * End-to-end: sessions as trees through `deno task start` on piped stdin: `/tree` lists the
 * tasks, `/tree ID` continues from an earlier answer in place, `/fork` starts a new file.
 */
import { assertEquals, assertMatch } from "@std/assert";
import { text } from "../support/scripts.ts";
import { createTempProject } from "../support/project.ts";
import {
  ENV,
  provider,
  sessionIds,
  sessionLines,
  sessionPath,
  startScriptedServer,
} from "../support/sessions.ts";

Deno.test("powercode /tree continues from the first answer: the request is byte-equal to the original second one, and both branches stay in the file", async () => {
  await using project = await createTempProject();
  await using fake = await startScriptedServer();
  await project.writeProvider(provider(fake.server.url));
  const first = fake.play([text("One."), text("Two."), text("Three.")]);
  const run1 = await project.run([], { stdin: "task one\ntask two\ntask three\n", env: ENV });
  assertEquals([run1.code, run1.stderr], [0, ""]);
  const original = first();
  assertEquals(original.length, 3);
  const [id] = await sessionIds(project.dir);
  const lines = await sessionLines(project.dir, id!);
  // The entry after task one's answer: the last line before task two begins.
  const taskTwo = lines.findIndex((line) =>
    line.type === "message" && (line.message as { content?: string }).content === "task two"
  );
  const startsTwo = lines[taskTwo - 1]?.type === "task_start" ? taskTwo - 1 : taskTwo;
  // Lines are numbered from 1: the line before task two's start is line `startsTwo`.
  const endOfOne = startsTwo;
  const second = fake.play([text("Two again.")]);
  const run2 = await project.run(["-c"], {
    stdin: `/tree\n/tree ${endOfOne}\ntask two\n`,
    env: ENV,
  });
  assertEquals([run2.code, run2.stderr], [0, ""]);
  const listing = run2.stdout.split("\n").filter((line) => /^[▶ ] +\d+ {2}task /.test(line));
  assertEquals(listing.map((line) => line.replace(/\d+/, "N")), [
    "  N  task one",
    "  N  task two",
    "▶ N  task three",
  ]);
  assertEquals(listing[0]?.trim().split(/\s+/)[0], String(endOfOne));
  assertMatch(run2.stdout, new RegExp(`Continuing from entry ${endOfOne} \\(2 messages\\)`));
  const [again] = second();
  assertEquals(JSON.stringify(again?.raw), JSON.stringify(original[1]?.raw));
  const after = await sessionLines(project.dir, id!);
  const contents = after.filter((line) => line.type === "message")
    .map((line) => (line.message as { content: string }).content);
  assertEquals(contents, [
    "task one",
    "One.",
    "task two",
    "Two.",
    "task three",
    "Three.",
    "task two",
    "Two again.",
  ]);
  const branch = after.find((line, index) => index > lines.length - 1 && line.parent !== undefined);
  assertEquals(branch?.parent, endOfOne);

  // The new branch is the conversation now: /tree marks it, the old one is listed beside it.
  const third = fake.play([text("Four.")]);
  const run3 = await project.run(["-c"], { stdin: "/tree\ntask four\n", env: ENV });
  assertEquals([run3.code, run3.stderr], [0, ""]);
  const tree = run3.stdout.split("\n").filter((line) => /^[▶ ] +\d+ {2}task /.test(line))
    .map((line) => line.replace(/\d+/, "N"));
  assertEquals(tree, [
    "  N  task one",
    "    N  task two",
    "    N  task three",
    "▶   N  task two",
  ]);
  assertEquals(
    third()[0]?.body?.messages.slice(1).map((message) => message.content),
    ["task one", "One.", "task two", "Two again.", "task four"],
  );
});

Deno.test("powercode /fork writes a new session file with the conversation, and --continue resumes it", async () => {
  await using project = await createTempProject();
  await using fake = await startScriptedServer();
  await project.writeProvider(provider(fake.server.url));
  fake.play([text("One.")]);
  const run1 = await project.run([], { stdin: "task one\n/fork\n", env: ENV });
  assertEquals([run1.code, run1.stderr], [0, ""]);
  assertMatch(run1.stdout, /Forked into session \S+ \(2 messages\)/);
  const ids = await sessionIds(project.dir);
  assertEquals(ids.length, 2);
  // Both files can be made in the same second: the fork is the one the line names.
  const forkedId = /Forked into session (\S+) /.exec(run1.stdout)?.[1];
  const originalId = ids.find((id) => id !== forkedId);
  const requests = fake.play([text("Two.")]);
  const run2 = await project.run(["-c"], { stdin: "task two\n", env: ENV });
  assertEquals([run2.code, run2.stderr], [0, ""]);
  assertEquals(
    requests()[0]?.body?.messages.slice(1).map((message) => message.content),
    ["task one", "One.", "task two"],
  );
  const forked = (await sessionLines(project.dir, forkedId!)).filter((line) =>
    line.type === "message"
  );
  assertEquals(forked.length, 4);
  const old = (await sessionLines(project.dir, originalId!)).filter((line) =>
    line.type === "message"
  );
  assertEquals(old.length, 2);
});

Deno.test("powercode --fork ID:ENTRY starts a new session from an entry of another, which stays as it was", async () => {
  await using project = await createTempProject();
  await using fake = await startScriptedServer();
  await project.writeProvider(provider(fake.server.url));
  fake.play([text("One."), text("Two.")]);
  const run1 = await project.run([], { stdin: "task one\ntask two\n", env: ENV });
  assertEquals([run1.code, run1.stderr], [0, ""]);
  const [id] = await sessionIds(project.dir);
  const before = await Deno.readTextFile(sessionPath(project.dir, id!));
  const lines = await sessionLines(project.dir, id!);
  const one = lines.findIndex((line) =>
    line.type === "message" && (line.message as { content?: string }).content === "One."
  );
  const requests = fake.play([text("Other.")]);
  const run2 = await project.run(["--fork", `${id!.slice(0, 12)}:${one + 1}`], {
    stdin: "task other\n",
    env: ENV,
  });
  assertEquals([run2.code, run2.stderr], [0, ""]);
  assertEquals(
    requests()[0]?.body?.messages.slice(1).map((message) => message.content),
    ["task one", "One.", "task other"],
  );
  assertEquals((await sessionIds(project.dir)).length, 2);
  assertEquals(await Deno.readTextFile(sessionPath(project.dir, id!)), before);
  const bad = await project.run(["--fork", `${id}:999`], { stdin: "", env: ENV });
  assertEquals(bad.code, 2);
  assertMatch(bad.stderr, /Cannot fork session "\S+": it has no entry 999 \(\/tree lists them\)/);
});

Deno.test("powercode /rewind goes back in the tree: the abandoned tasks stay in the file, /tree lists them, and the request after it is byte-equal to the original one", async () => {
  await using project = await createTempProject();
  await using fake = await startScriptedServer();
  await project.writeProvider(provider(fake.server.url));
  const first = fake.play([text("One."), text("Two."), text("Three.")]);
  const run1 = await project.run([], { stdin: "task one\ntask two\ntask three\n", env: ENV });
  assertEquals([run1.code, run1.stderr], [0, ""]);
  const original = first();
  const [id] = await sessionIds(project.dir);
  const lines = await sessionLines(project.dir, id!);
  // Task two's start is line taskTwo + 1 (lines are numbered from 1): the line before it is
  // task one's last entry.
  const taskTwo = lines.flatMap((line, index) => line.type === "task_start" ? [index] : [])[1];
  const second = fake.play([text("Two again.")]);
  const run2 = await project.run(["-c"], {
    stdin: "/rewind 2\n/tree\ntask two\n/tree\n",
    env: ENV,
  });
  assertEquals([run2.code, run2.stderr], [0, ""]);
  assertMatch(run2.stdout, /Rewound to before task 2: task two/);
  const [again] = second();
  assertEquals(JSON.stringify(again?.raw), JSON.stringify(original[1]?.raw));
  const trees = run2.stdout.split("\n").filter((line) => /^[▶ ] +\d+ {2}task /.test(line))
    .map((line) => line.replace(/\d+/, "N"));
  assertEquals(trees, [
    "▶ N  task one",
    "  N  task two (undone)",
    "  N  task three (undone)",
    "  N  task one",
    "    N  task two (undone)",
    "    N  task three (undone)",
    "▶   N  task two",
  ]);
  const after = await sessionLines(project.dir, id!);
  assertEquals(after.slice(0, lines.length), lines, "the file is only appended to");
  const undo = after.find((line) => line.type === "undo");
  // The undo follows task one's last entry (the line before task two's start), not the
  // line before it, and names the end of the branch it left.
  assertEquals([undo?.parent, undo?.from], [taskTwo, lines.length]);
  const contents = after.filter((line) => line.type === "message")
    .map((line) => (line.message as { content: string }).content);
  assertEquals(contents, [
    "task one",
    "One.",
    "task two",
    "Two.",
    "task three",
    "Three.",
    "task two",
    "Two again.",
  ]);
});
