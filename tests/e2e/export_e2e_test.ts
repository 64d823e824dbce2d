/**
 * End-to-end: `/export` through `deno task start` on piped stdin in a temp project, the
 * session's tool call read from the fake server.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { sequence, text, toolCall } from "../support/scripts.ts";
import { createTempProject } from "../support/project.ts";
import { ENV, KEY, provider } from "../support/sessions.ts";

/** A session with one task that reads a file, then `lines` typed after it. */
async function exportRun(notes: string, lines: string[]) {
  const project = await createTempProject();
  await using server = await startFakeServer({
    handler: sequence([
      toolCall("read_file", { path: "notes.txt" }),
      text("The notes say **hi**."),
    ]),
  });
  await project.writeProvider(provider(server.url));
  await Deno.writeTextFile(`${project.workspace}/notes.txt`, notes);
  const result = await project.run([], {
    stdin: ["read the notes", ...lines, ""].join("\n"),
    env: ENV,
  });
  return { project, result };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("powercode /export writes md, html and jsonl with the task, the answer and the tool line", async () => {
  const { project, result } = await exportRun("hi <b>there</b>\x1b[31m red\n", [
    "/export out.md",
    "/export out.html",
    "/export out.jsonl",
  ]);
  await using _project = project;
  assertEquals([result.code, result.stderr], [0, ""]);
  assertMatch(result.stdout, /Exported the session to out\.md: \d+ bytes/);
  assertMatch(result.stdout, /Exported the session to out\.jsonl: \d+ bytes/);
  const md = await Deno.readTextFile(`${project.workspace}/out.md`);
  assertStringIncludes(md, "## Task 1\n\n> read the notes");
  assertStringIncludes(md, "```text\n● read_file notes.txt ✓\n```");
  assertStringIncludes(md, "The notes say **hi**.");
  const html = await Deno.readTextFile(`${project.workspace}/out.html`);
  assertStringIncludes(html, '<div class="task"><pre>read the notes</pre></div>');
  assertStringIncludes(html, '<details class="tool"><summary>● read_file notes.txt ✓</summary>');
  assertStringIncludes(html, "hi &lt;b&gt;there&lt;/b&gt;^[[31m red");
  assertStringIncludes(html, "The notes say **hi**.");
  assertEquals(/https?:|src=|href=|<script|<link/i.test(html), false);
  // deno-lint-ignore no-control-regex
  for (const text of [md, html]) assertEquals(/[\x00-\x08\x0b-\x1f\x7f]/.test(text), false);
  const records = (await Deno.readTextFile(`${project.workspace}/out.jsonl`)).split("\n")
    .filter((line) => line !== "").map((line) => JSON.parse(line));
  assertEquals(records[0].type, "session");
  const messages = records.filter((record) => record.type === "message")
    .map((record) => record.message);
  assertEquals(messages[0], { role: "user", content: "read the notes" });
  assertEquals(messages[1].toolCalls[0].name, "read_file");
  assertEquals(messages.at(-1), {
    role: "assistant",
    content: "The notes say **hi**.",
    toolCalls: [],
  });
});

Deno.test("powercode /export refuses an export that holds the provider key, naming the message, and writes nothing", async () => {
  const { project, result } = await exportRun(`key=${KEY}\n`, [
    "/export leak.md",
    "/export leak.html",
    "/export --redact safe.md",
  ]);
  await using _project = project;
  const refusals = result.stdout.split("\n").filter((line) => line.startsWith("✗"));
  assertEquals(refusals, [
    '✗ Cannot export to "leak.md": message 3 (a tool result) holds an API key or URL ' +
    "credential of a provider file; nothing was written (/export --redact leak.md replaces it)",
    '✗ Cannot export to "leak.html": message 3 (a tool result) holds an API key or URL ' +
    "credential of a provider file; nothing was written (/export --redact leak.html replaces it)",
  ]);
  assertEquals(await exists(`${project.workspace}/leak.md`), false);
  assertEquals(await exists(`${project.workspace}/leak.html`), false);
  assertEquals((await Array.fromAsync(Deno.readDir(project.workspace))).map((e) => e.name).sort(), [
    "notes.txt",
    "safe.md",
  ]);
  assertMatch(
    result.stdout,
    /Exported the session to safe\.md: \d+ bytes \(secrets replaced in 1 messages\)/,
  );
  const safe = await Deno.readTextFile(`${project.workspace}/safe.md`);
  assert(!safe.includes(KEY));
  assertStringIncludes(safe, "● read_file notes.txt ✓");
});

Deno.test("powercode /export refuses a task that holds a value of a file .powercodeignore hides", async () => {
  await using project = await createTempProject();
  await using server = await startFakeServer({ handler: sequence([text("Noted.")]) });
  await project.writeProvider(provider(server.url));
  await Deno.writeTextFile(`${project.workspace}/.powercodeignore`, ".env\n");
  await Deno.writeTextFile(`${project.workspace}/.env`, 'DB_PASSWORD="correct-horse-battery"\n');
  const result = await project.run([], {
    stdin: "the password is correct-horse-battery\n/export out.md\n",
    env: ENV,
  });
  // A piped run whose last line failed exits 1.
  assertEquals([result.code, result.stderr], [1, ""]);
  assertEquals(result.stdout.split("\n").filter((line) => line.startsWith("✗")), [
    '✗ Cannot export to "out.md": message 1 (a task) holds the contents of ".env" (a file ' +
    ".powercodeignore hides); nothing was written (/export --redact out.md replaces it)",
  ]);
  assertEquals(await exists(`${project.workspace}/out.md`), false);
});
