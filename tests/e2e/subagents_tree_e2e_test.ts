/**
 * End-to-end: subagents as a tree, through `deno task start -p` against the fake server,
 * which scripts the children's replies by their task: three `task` calls of one reply run at
 * once and their results come back in the calls' order; each child's session file is linked
 * from the parent's result and names its parent, `--sessions` lists it under its parent and
 * `-c` never takes it; a child's child is refused a `task` of its own; `--scope` prints each
 * agent's scope.
 *
 * @module
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import type { HandledRequest, Reply } from "../support/replies.ts";
import type { RecordedRequest } from "../support/fake_server.ts";
import { startFakeServer } from "../support/fake_server.ts";
import {
  lastUserText,
  sequence,
  systemText,
  text,
  toolCall,
  toolCalls,
} from "../support/scripts.ts";
import { createTempProject, type TempProject } from "../support/project.ts";
import { ENV, provider, sessionIds, sessionLines } from "../support/sessions.ts";

const JOBS = ["job A", "job B", "job C"];

/** The tool results of `request`, in order, with the ids of the calls they answer. */
function toolResults(request: RecordedRequest | undefined): [string, string][] {
  return (request?.body?.messages ?? []).flatMap((message) =>
    message.role === "tool" && typeof message.content === "string"
      ? [[message.tool_call_id, message.content] as [string, string]]
      : []
  );
}

function toolNames(request: RecordedRequest | undefined): string[] {
  return (request?.body?.tools ?? []).map((tool) => tool.function.name);
}

async function writeAgent(project: TempProject, name: string, text: string): Promise<void> {
  await Deno.mkdir(`${project.workspace}/.powercode/agents`, { recursive: true });
  await Deno.writeTextFile(`${project.workspace}/.powercode/agents/${name}.md`, text);
}

/**
 * The parent asks for three children in one reply, then answers `final`; each child answers
 * `answer <job>` once all three children have asked (so they can only have run at once), the
 * first asked last, so they end in the reverse order of the calls.
 */
function fanOut(final: string[]) {
  const arrived: string[] = [];
  const all = Promise.withResolvers<void>();
  const seenAtAnswer: number[] = [];
  let parentTurns = 0;
  const handler = async (request: HandledRequest): Promise<Reply> => {
    if (!systemText(request).includes('Agent "explore"')) {
      if (parentTurns++ === 0) {
        return toolCalls(JOBS.map((job, index) => ({
          id: `call_${index + 1}`,
          name: "task",
          args: { description: job, prompt: job },
        })));
      }
      return text(final[parentTurns - 2] ?? "no more");
    }
    const job = lastUserText(request);
    arrived.push(job);
    if (arrived.length === JOBS.length) all.resolve();
    await Promise.race([all.promise, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    seenAtAnswer.push(arrived.length);
    const delayMs = (JOBS.length - JOBS.indexOf(job)) * 300;
    return text(`answer ${job}`, { delayMs });
  };
  return { handler, arrived, seenAtAnswer };
}

Deno.test("three task calls in one reply run at once; their results come back in the calls' order, each linked to its child's session file", async () => {
  const script = fanOut(["all three answered", "continued the parent"]);
  await using server = await startFakeServer({ model: "fake-model", handler: script.handler });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const result = await project.run(["-p", "fan out"], { env: ENV });
  assertEquals(result.code, 0, result.stderr);
  assertEquals(result.stdout, "all three answered\n");
  assertEquals(script.seenAtAnswer, [3, 3, 3], "every child asked before any was answered");
  assertEquals(new Set(script.arrived), new Set(JOBS));

  const parents = server.requests.filter((request) =>
    !systemText(request).includes('Agent "explore"')
  );
  const [first, second] = parents;
  const results = toolResults(second);
  assertEquals(results.map(([id]) => id), ["call_1", "call_2", "call_3"]);
  for (const [index, [, content]] of results.entries()) {
    assertMatch(
      content,
      new RegExp(`^answer ${JOBS[index]}\\n\\n\\[agent explore: 1 step, \\d+ tokens\\]$`),
    );
  }
  // The parent's prefix is byte-equal: what the children did is not in it.
  assertEquals(JSON.stringify(second?.body?.tools), JSON.stringify(first?.body?.tools));
  const firstMessages = first?.body?.messages ?? [];
  assertEquals(
    JSON.stringify(second?.body?.messages.slice(0, firstMessages.length)),
    JSON.stringify(firstMessages),
  );

  // Each result record names its child's session file, whose header names the parent.
  const ids = await sessionIds(project.dir);
  assertEquals(ids.length, 4, "the parent's session and one per child");
  const headers = new Map<string, Record<string, unknown>>();
  for (const id of ids) headers.set(id, (await sessionLines(project.dir, id))[0] ?? {});
  const [parent] = ids.filter((id) => headers.get(id)?.parentSession === undefined);
  assert(parent !== undefined);
  const linked = (await sessionLines(project.dir, parent)).flatMap((line) => {
    const message = line.message as Record<string, unknown> | undefined;
    return message?.role === "tool" ? [String(message.session)] : [];
  });
  assertEquals(linked.length, 3);
  for (const [index, child] of linked.entries()) {
    assertEquals(headers.get(child)?.parentSession, parent);
    const task = (await sessionLines(project.dir, child)).find((line) =>
      (line.message as Record<string, unknown> | undefined)?.role === "user"
    );
    assertEquals((task?.message as Record<string, unknown>).content, JOBS[index]);
  }

  // --sessions lists the children under their parent; -c takes the parent even when a child
  // file changed last.
  const listed = await project.run(["--sessions"], { env: ENV });
  const rows = listed.stdout.split("\n").filter((row) => /\d{8}-\d{6}-/.test(row));
  assertEquals(rows.length, 4, listed.stdout);
  assert(rows[0]?.includes(parent) && rows[0].includes("-p: fan out"), rows[0]);
  for (const row of rows.slice(1)) assertMatch(row, /↳ task: job [ABC]$/);
  const later = new Date(Date.now() + 60_000);
  await Deno.utime(`${project.dir}/.powercode/sessions/${linked[0]}.jsonl`, later, later);
  const resumed = await project.run(["-c", "-p", "go on"], { env: ENV });
  assertEquals(resumed.code, 0, resumed.stderr);
  assertEquals(resumed.stdout, "continued the parent\n");
  const last = server.requests.at(-1);
  assertEquals(last?.body?.messages[1]?.content, "fan out", "the parent's conversation goes on");
});

Deno.test("task: a child may start a child of its own; that grandchild is refused the task tool with one line", async () => {
  await using server = await startFakeServer({
    model: "fake-model",
    handler: sequence([
      toolCall("task", { description: "lead", prompt: "lead it", agent: "lead" }),
      toolCall("task", { description: "deeper", prompt: "go deeper", agent: "lead" }),
      toolCall("task", { description: "deepest", prompt: "deeper still", agent: "lead" }),
      text("the grandchild was refused"),
      text("the child is done"),
      text("all done"),
    ]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  await writeAgent(project, "lead", "---\ndescription: leads the work\n---\nLead.\n");
  const result = await project.run(["-p", "delegate"], { env: ENV });
  assertEquals(result.code, 0, result.stderr);
  assertEquals(result.stdout, "all done\n");
  const [parent, child, grandchild, refused] = server.requests;
  assert(toolNames(parent).includes("task"));
  assert(toolNames(child).includes("task"), "a child (depth 1) has the task tool");
  assertEquals(toolNames(grandchild).includes("task"), false, "a grandchild has none");
  assertEquals(toolResults(refused).map(([, content]) => content), [
    "Error: Cannot run task: a subagent's subagent cannot start subagents (at most 2 levels)",
  ]);
  const ids = await sessionIds(project.dir);
  assertEquals(ids.length, 3);
  const parentOf = new Map<string, unknown>();
  for (const id of ids) parentOf.set(id, (await sessionLines(project.dir, id))[0]?.parentSession);
  const [root] = ids.filter((id) => parentOf.get(id) === undefined);
  const [middle] = ids.filter((id) => parentOf.get(id) === root);
  assert(middle !== undefined);
  assertEquals(ids.filter((id) => parentOf.get(id) === middle).length, 1);
});

Deno.test("--scope prints each agent's roots, read-only, hosts and tools, and an agent refused", async () => {
  await using project = await createTempProject();
  await Deno.mkdir(`${project.workspace}/src`);
  await writeAgent(project, "api", "---\ndescription: api work\nroots: [src]\n---\n");
  await writeAgent(project, "wide", "---\ndescription: wants more\nroots: [..]\n---\n");
  await writeAgent(
    project,
    "reader",
    "---\ndescription: reads\ntools: [read_file, grep]\nreadOnly: true\n---\n",
  );
  const result = await project.run(["--scope"], { env: ENV });
  assertEquals(result.code, 0, result.stderr);
  const lines = result.stdout.split("\n");
  const from = lines.indexOf("Subagents (the task tool; each within this run's scope):");
  assert(from > 0, result.stdout);
  const real = await Deno.realPath(project.workspace);
  assertEquals(lines.slice(from + 1).filter((line) => line !== ""), [
    "  explore (built-in):",
    `    roots:     ${real} (read-only)`,
    "    read-only: yes (its bash sees every root read-only)",
    "    hosts:     none (no network)",
    "    tools:     read_file, bash, grep, glob, ls, bash_output, bash_kill",
    '    subagents: none: agent "explore" is read-only: it starts no subagents',
    "  api (.powercode/agents/api.md):",
    `    roots:     ${real}/src`,
    "    read-only: no",
    "    hosts:     none (no network)",
    "    tools:     read_file, write_file, edit_file, bash, todo, grep, glob, ls, " +
    "bash_output, bash_kill, fetch, task",
    "    subagents: yes, which start none (at most 2 levels)",
    "  reader (.powercode/agents/reader.md):",
    `    roots:     ${real} (read-only)`,
    "    read-only: yes (its bash sees every root read-only)",
    "    hosts:     none (no network)",
    "    tools:     read_file, grep",
    '    subagents: none: agent "reader" is read-only: it starts no subagents',
    '  wide (.powercode/agents/wide.md): refused: field "roots" names "..", which is no ' +
    "directory inside the parent's roots",
  ]);
});

Deno.test("stream-json: the three children's results are written in the calls' order, each with its size", async () => {
  const script = fanOut(["all three answered"]);
  await using server = await startFakeServer({ model: "fake-model", handler: script.handler });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  const result = await project.run(["-p", "fan out", "--output-format", "stream-json"], {
    env: ENV,
  });
  assertEquals(result.code, 0, result.stderr);
  const events = result.stdout.trim().split("\n").map((line) => JSON.parse(line));
  const ended = events.filter((event) => event.type === "tool_result");
  assertEquals(ended.map((event) => event.id), ["call_1", "call_2", "call_3"]);
  for (const [index, event] of ended.entries()) {
    assertMatch(event.summary, new RegExp(`^explore · ${JOBS[index]} · 1 step, \\d+ tokens$`));
    assert(event.bytes > `answer ${JOBS[index]}`.length, JSON.stringify(event));
  }
});

Deno.test("/scope at the prompt lists the agents as --scope does", async () => {
  await using project = await createTempProject();
  await using server = await startFakeServer({ model: "fake-model", handler: sequence([]) });
  await project.writeProvider(provider(server.url));
  await writeAgent(project, "api", "---\ndescription: api work\ntools: [read_file]\n---\n");
  const result = await project.run([], { stdin: "/scope\n", env: ENV });
  assertEquals(result.code, 0, result.stderr);
  const lines = result.stdout.split("\n");
  const from = lines.indexOf("  api (.powercode/agents/api.md):");
  assert(lines.includes("  explore (built-in):"), result.stdout);
  assert(from > 0, result.stdout);
  assertEquals(lines[from + 4], "    tools:     read_file");
  assertEquals(lines[from + 5], '    subagents: none: agent "api" has no "task" in its tools');
});

Deno.test("--allow-domain: a read-only child's commands have no network, another child's reach the allowed host", async () => {
  const command = 'curl -s -o /dev/null -w "code %{http_code}" http://HOST/ping || echo " no way"';
  // Any HTTP answer shows the host was reached: the fake server answers /ping 404.
  await using target = await startFakeServer({ model: "fake-model", handler: sequence([]) });
  const host = new URL(target.url).host;
  const curl = command.replace("HOST", host);
  await using server = await startFakeServer({
    model: "fake-model",
    handler: sequence([
      toolCall("task", { description: "look", prompt: "curl it", agent: "explore" }),
      toolCall("bash", { command: curl }),
      text("explore done"),
      toolCall("task", { description: "fetch", prompt: "curl it", agent: "online" }),
      toolCall("bash", { command: curl }),
      text("online done"),
      text("both done"),
    ]),
  });
  await using project = await createTempProject();
  await project.writeProvider(provider(server.url));
  await writeAgent(project, "online", "---\ndescription: may reach the hosts\n---\n");
  const result = await project.run(["-p", "reach out", "--allow-domain", host], { env: ENV });
  assertEquals(result.code, 0, result.stderr);
  const [offline = ""] = toolResults(server.requests[2]).map(([, content]) => content);
  const [online = ""] = toolResults(server.requests[5]).map(([, content]) => content);
  assertMatch(offline, /^code 000 no way\n/);
  assertMatch(online, /^code 404\n/);
});
