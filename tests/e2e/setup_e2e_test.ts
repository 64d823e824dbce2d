/**
 * End-to-end: the user's setup through the real program (`deno task start`, piped stdin)
 * against the strict fake server: custom commands (`$ARGUMENTS`, `allowed-tools`, `model`, a
 * clash with a built-in), skills (listed, read when asked, `/skill:NAME`, one added
 * mid-session), and `/init`.
 *
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { type RecordedRequest, startFakeServer } from "../support/fake_server.ts";
import { createTempProject } from "../support/project.ts";
import { answerSummaries, sequence, text, toolCall, toolCalls } from "../support/scripts.ts";
import { ENV, KEY, provider, startScriptedServer } from "../support/sessions.ts";

/** The tool results a request carries, in order. */
function toolResults(request: RecordedRequest | undefined): string[] {
  return (request?.body?.messages ?? []).flatMap((message) =>
    message.role === "tool" && typeof message.content === "string" ? [message.content] : []
  );
}

/** The last user message of a request. */
function lastUser(request: RecordedRequest | undefined): unknown {
  return request?.body?.messages.findLast((message) => message.role === "user")?.content;
}

/** What must stay byte-equal during a session: the tools and the system prompt, as sent. */
function prefix(request: RecordedRequest | undefined): string {
  const raw = request?.raw as { tools?: unknown; messages?: unknown[] } | undefined;
  return JSON.stringify({ tools: raw?.tools, system: raw?.messages?.[0] });
}

function system(request: RecordedRequest | undefined): string {
  const content = request?.body?.messages[0]?.content;
  return typeof content === "string" ? content : "";
}

async function write(path: string, content: string): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, content);
}

const REVIEW = [
  "---",
  "description: Review a file for bugs",
  "argument-hint: <file>",
  "allowed-tools: read_file",
  "---",
  "Review $ARGUMENTS for bugs; start with $1.",
  "",
].join("\n");

Deno.test("/review a.ts sends the expanded .claude/commands/review.md; allowed-tools refuses a write in that task only; /help lists it; a clash with /help is reported once", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  await write(`${project.workspace}/.claude/commands/review.md`, REVIEW);
  await write(`${project.workspace}/.claude/commands/help.md`, "Not the help.\n");
  const requests = scripted.play([
    toolCall("write_file", { path: "x.txt", content: "x\n" }),
    text("Reviewed."),
    toolCall("write_file", { path: "x.txt", content: "x\n" }),
    text("Written."),
  ]);
  const result = await project.run([], {
    stdin: "/help\n/help review\n/review a.ts b.ts\nwrite x.txt\n",
    env: ENV,
  });
  assertEquals(result.code, 0, result.stderr);
  const clash = "⚠ Command .claude/commands/help.md skipped: /help is a built-in command";
  assertEquals(result.stdout.split(clash).length, 2, result.stdout);
  assertStringIncludes(result.stdout, "  /ps  /kill  /exit  /review\n");
  assertStringIncludes(
    result.stdout,
    "/review <file>: Review a file for bugs (.claude/commands)",
  );
  assert(!result.stdout.includes("Not the help."), result.stdout);

  const all = requests();
  assertEquals(all.length, 4);
  assertEquals(lastUser(all[0]), "Review a.ts b.ts for bugs; start with a.ts.");
  assertEquals(toolResults(all[1]), [
    "Error: Cannot run write_file: /review allows only read_file during this task; do the " +
    "task with those, or say what you could not do",
  ]);
  assertEquals(lastUser(all[2]), "write x.txt");
  assertEquals(toolResults(all[3]).at(-1)?.startsWith("Error"), false, toolResults(all[3]).at(-1));
  assertEquals(await Deno.readTextFile(`${project.workspace}/x.txt`), "x\n");
  assertEquals(new Set(all.map(prefix)).size, 1, "tools and system prompt stay byte-equal");
});

Deno.test("a command's model runs its task on that profile only; the next task goes back", async () => {
  const serve = (model: string, reply: string) =>
    startFakeServer({
      model,
      apiKey: KEY,
      contextWindow: 64000,
      handler: answerSummaries(sequence([text(reply)])),
    });
  await using small = await serve("fake-small", "Small.");
  await using big = await serve("fake-big", "Big.");
  await using project = await createTempProject();
  await project.writeProvider({
    default: "small",
    profiles: {
      small: provider(small.url, { model: "fake-small" }),
      big: provider(big.url, { model: "fake-big", contextWindow: 64000 }),
    },
  });
  await write(
    `${project.workspace}/.powercode/commands/deep.md`,
    "---\nmodel: big\n---\nThink hard about $ARGUMENTS.\n",
  );
  const result = await project.run([], { stdin: "/deep the cache\nand then\n", env: ENV });
  assertEquals(result.code, 0, result.stderr);
  assertEquals(big.requests.map(lastUser), ["Think hard about the cache."]);
  assertEquals(small.requests.map(lastUser), ["and then"]);
});

const SKILL = [
  "---",
  "name: pdf",
  "description: Work with PDF files: extract text, fill forms",
  "---",
  "SKILL-BODY: run scripts/extract.sh on the file.",
  "",
].join("\n");

Deno.test("a skill's name and description are in the first request and its body is not; the body comes when the model reads it, or with /skill:pdf", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  await write(`${project.workspace}/.claude/skills/pdf/SKILL.md`, SKILL);
  const requests = scripted.play([
    toolCall("skill", { name: "pdf" }),
    text("Read it."),
    toolCall("read_file", { path: ".claude/skills/pdf/SKILL.md" }),
    text("Read the file."),
    text("Used it."),
  ]);
  const result = await project.run([], {
    stdin: "get the text of a.pdf\nread it as a file\n/skill:pdf fill form.pdf\n",
    env: ENV,
  });
  assertEquals(result.code, 0, result.stderr);
  const all = requests();
  assertEquals(all.length, 5);
  const [first] = all;
  assertStringIncludes(
    system(first),
    "\n- pdf: Work with PDF files: extract text, fill forms (.claude/skills/pdf/SKILL.md)",
  );
  assert(!JSON.stringify(first?.raw).includes("SKILL-BODY"), "the body is not sent at first");
  assert(first?.body?.tools?.some((tool) => tool.function.name === "skill"));
  assertEquals(toolResults(all[1]), [
    'Skill "pdf" (.claude/skills/pdf/SKILL.md; its files are in .claude/skills/pdf/):\n\n' +
    "SKILL-BODY: run scripts/extract.sh on the file.",
  ]);
  assertStringIncludes(toolResults(all[3]).at(-1) ?? "", "SKILL-BODY");
  assertEquals(
    lastUser(all[4]),
    "The user asks you to use this skill for the task below.\n\n" +
      'Skill "pdf" (.claude/skills/pdf/SKILL.md; its files are in .claude/skills/pdf/):\n\n' +
      "SKILL-BODY: run scripts/extract.sh on the file.\n\nTask: fill form.pdf",
  );
  assertEquals(new Set(all.map(prefix)).size, 1, "tools and system prompt stay byte-equal");
});

Deno.test("a skill added mid-session leaves the next request's prefix byte-equal, and is listed after /clear", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  await write(`${project.workspace}/.agents/skills/old/SKILL.md`, SKILL.replace("pdf", "old"));
  const requests = scripted.play([text("One."), text("Two."), text("Three.")]);
  const skill = `${project.workspace}/.powercode/skills/new/SKILL.md`;
  const child = project.spawn([], { env: ENV });
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode("one\n"));
  while (requests().length < 1) await new Promise((resolve) => setTimeout(resolve, 20));
  await write(skill, "---\nname: new\ndescription: A skill added meanwhile\n---\nNEW\n");
  await writer.write(new TextEncoder().encode("two\n/clear\nthree\n"));
  await writer.close();
  const output = await child.output();
  assertEquals(output.code, 0, new TextDecoder().decode(output.stderr));
  const all = requests();
  assertEquals(all.map(lastUser), ["one", "two", "three"]);
  assertEquals(prefix(all[1]), prefix(all[0]));
  assert(!system(all[1]).includes("- new:"), system(all[1]));
  assertStringIncludes(
    system(all[2]),
    "- new: A skill added meanwhile (.powercode/skills/new/SKILL.md)\n" +
      "- old: Work with PDF files: extract text, fill forms (.agents/skills/old/SKILL.md)",
  );
});

Deno.test("/init lets only AGENTS.md change, with bash read-only, for its task only", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const requests = scripted.play([
    toolCalls([
      { name: "write_file", args: { path: "notes.md", content: "no\n" } },
      { name: "bash", args: { command: "echo x > y.txt" } },
      { name: "write_file", args: { path: "AGENTS.md", content: "# Agents\n" } },
    ]),
    text("Wrote AGENTS.md."),
    toolCall("bash", { command: "echo x > y.txt" }),
    text("Done."),
  ]);
  const result = await project.run([], { stdin: "/init mention the tests\nmake y\n", env: ENV });
  assertEquals(result.code, 0, result.stderr);
  const all = requests();
  assertStringIncludes(String(lastUser(all[0])), "Write AGENTS.md at the workspace root");
  assertStringIncludes(String(lastUser(all[0])), "The user adds: mention the tests");
  const [refused, readOnly, written] = toolResults(all[1]);
  assertEquals(
    refused,
    "Error: Cannot run write_file: /init lets only AGENTS.md at the workspace root change; " +
      "write that file",
  );
  assertEquals(readOnly, "bash: line 1: y.txt: Read-only file system\nexit code 1");
  assertEquals(written, 'Wrote 9 bytes to "AGENTS.md" (new file)');
  assertEquals(await Deno.readTextFile(`${project.workspace}/AGENTS.md`), "# Agents\n");
  assertEquals(await Deno.readTextFile(`${project.workspace}/y.txt`), "x\n");
});
