/**
 * End-to-end: the `task` tool through `deno task start -p` against the fake server, which
 * answers the parent's and the child's requests in the order they come: the child's answer
 * as the call's result, `explore` read-only, a child confined to its roots, its tokens in
 * the parent's usage, and a budget slice that stops it.
 *
 * @module
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import type { RecordedRequest } from "../support/fake_server.ts";
import { startFakeServer } from "../support/fake_server.ts";
import { sequence, text, toolCall } from "../support/scripts.ts";
import { createTempProject, type TempProject } from "../support/project.ts";
import { ENV, provider } from "../support/sessions.ts";

/** The tool results of `request`, in order. */
function toolResults(request: RecordedRequest | undefined): string[] {
  return (request?.body?.messages ?? []).flatMap((message) =>
    message.role === "tool" && typeof message.content === "string" ? [message.content] : []
  );
}

function toolNames(request: RecordedRequest | undefined): string[] {
  return (request?.body?.tools ?? []).map((tool) => tool.function.name);
}

function systemPrompt(request: RecordedRequest | undefined): string {
  const first = request?.body?.messages[0];
  return typeof first?.content === "string" ? first.content : "";
}

async function writeAgent(project: TempProject, name: string, text: string): Promise<void> {
  await Deno.mkdir(`${project.workspace}/.powercode/agents`, { recursive: true });
  await Deno.writeTextFile(`${project.workspace}/.powercode/agents/${name}.md`, text);
}

Deno.test("task runs explore: the child's answer is the call's result, its tokens count in the parent's usage", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    handler: sequence([
      toolCall("task", { description: "read a", prompt: "What does a.txt say?" }),
      toolCall("read_file", { path: "a.txt" }),
      text("a.txt says hello"),
      text("The file says hello."),
    ]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  await Deno.writeTextFile(`${project.workspace}/a.txt`, "hello\n");
  const result = await project.run(["-p", "ask a child", "--output-format", "json"], { env: ENV });
  assertEquals(result.code, 0, result.stderr);
  const [parentFirst, childFirst, childSecond, parentSecond] = server.requests;
  assertEquals(toolNames(parentFirst), [
    "read_file",
    "write_file",
    "edit_file",
    "bash",
    "todo",
    "grep",
    "glob",
    "ls",
    "bash_output",
    "bash_kill",
    "fetch",
    "task",
  ]);
  assertStringIncludes(parentFirst?.body?.tools?.at(-1)?.function.description ?? "", "- explore:");
  // explore: the tools that only read, and bash (its sandbox read-only) with its jobs.
  assertEquals(toolNames(childFirst), [
    "read_file",
    "bash",
    "grep",
    "glob",
    "ls",
    "bash_output",
    "bash_kill",
  ]);
  assertStringIncludes(systemPrompt(childFirst), 'Agent "explore"');
  assertEquals(childFirst?.body?.messages.at(-1)?.content, "What does a.txt say?");
  assertEquals(toolResults(childSecond).length, 1);
  const [answer = ""] = toolResults(parentSecond);
  assertMatch(answer, /^a\.txt says hello\n\n\[agent explore: 2 steps, \d+ tokens\]$/);
  const object = JSON.parse(result.stdout);
  assertEquals(object.result, "The file says hello.");
  assertEquals(object.steps, 2);
  const prompt = server.requests.reduce((sum, request) => sum + request.promptTokens, 0);
  assertEquals(object.usage.prompt, prompt, "the child's prompts count in the parent's usage");
  const childTokens = Number(/(\d+) tokens\]$/.exec(answer)?.[1]);
  assert(childTokens > 0 && childTokens < object.usage.total);
});

Deno.test("task: explore cannot write; its bash sees the workspace read-only and the file stays absent", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    handler: sequence([
      toolCall("task", { description: "try a write", prompt: "Make made.txt", agent: "explore" }),
      toolCall("bash", { command: "echo x > made.txt" }),
      toolCall("write_file", { path: "made.txt", content: "x" }),
      text("I could not write"),
      text("done"),
    ]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const result = await project.run(["-p", "write through a child"], { env: ENV });
  assertEquals(result.code, 0, result.stderr);
  const [bash = "", write = ""] = toolResults(server.requests[3]);
  assertStringIncludes(bash, "Read-only file system");
  assertStringIncludes(write, 'Unknown tool "write_file"');
  assertEquals(await Deno.stat(`${project.workspace}/made.txt`).catch(() => undefined), undefined);
});

Deno.test("task: a child with roots [src] reads nothing outside src, by its tools or its bash", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    handler: sequence([
      toolCall("task", { description: "look", prompt: "Read around", agent: "scoped" }),
      toolCall("read_file", { path: "../secret.txt" }),
      toolCall("bash", { command: "cat inner.txt; cat ../secret.txt; ls .." }),
      text("only inner"),
      text("done"),
    ]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  await Deno.mkdir(`${project.workspace}/src`);
  await Deno.writeTextFile(`${project.workspace}/src/inner.txt`, "inner text\n");
  await Deno.writeTextFile(`${project.workspace}/secret.txt`, "secret text\n");
  await writeAgent(
    project,
    "scoped",
    "---\nname: scoped\ndescription: works in src\nroots: [src]\n---\nStay in src.\n",
  );
  const result = await project.run(["-p", "look around"], { env: ENV });
  assertEquals(result.code, 0, result.stderr);
  const [read = "", bash = ""] = toolResults(server.requests[3]);
  assertStringIncludes(read, "path escapes the workspace");
  assertStringIncludes(bash, "inner text");
  assert(!bash.includes("secret text"), bash);
  assertStringIncludes(
    bash,
    "No such file or directory\nsrc\n",
    "the parent's root shows only src",
  );
  assertStringIncludes(systemPrompt(server.requests[1]), "Stay in src.");
});

Deno.test("task: an agent whose roots leave the parent's is refused with one line naming the field", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    handler: sequence([
      toolCall("task", { description: "escape", prompt: "Read /etc", agent: "wide" }),
      text("refused"),
    ]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  await writeAgent(project, "wide", "---\ndescription: wants more\nroots: [..]\n---\n");
  const result = await project.run(["-p", "escape"], { env: ENV });
  assertEquals(result.code, 0, result.stderr);
  assertEquals(server.requests.length, 2, "no child request was sent");
  assertEquals(toolResults(server.requests[1]), [
    'Error: Cannot start agent "wide" (.powercode/agents/wide.md): field "roots" names "..", ' +
    "which is no directory inside the parent's roots",
  ]);
});

Deno.test("task: a child over its budget slice stops with a result saying so, and the parent goes on", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    handler: sequence([
      toolCall("task", { description: "spend", prompt: "Read everything", agent: "cheap" }),
      text("the child stopped"),
    ]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  await writeAgent(project, "cheap", "---\ndescription: cheap\nbudget: { tokens: 500 }\n---\n");
  const result = await project.run(["-p", "spend"], { env: ENV });
  assertEquals(result.code, 0, result.stderr);
  assertEquals(result.stdout, "the child stopped\n");
  assertEquals(server.requests.length, 2, "the child's request was refused before it was sent");
  const [stopped = ""] = toolResults(server.requests[1]);
  assertMatch(
    stopped,
    /^The subagent stopped: Budget reached: this session has spent 0 of its 500 tokens.*\n\n\[agent cheap: 0 steps, 0 tokens\]$/s,
  );
});
