import { assertEquals, assertStrictEquals, assertThrows } from "@std/assert";
import { createTools, type Tool, type ToolRequest } from "../../../src/tools/mod.ts";
import { ToolSet } from "../../../src/tools/tool_set.ts";

/** Runs `fn` with a set of all tools on a temp workspace holding `a.txt`. */
async function withToolSet(
  fn: (toolSet: ToolSet, root: string) => Promise<void> | void,
): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "powercode_tool_set_" }));
  try {
    await Deno.writeTextFile(`${root}/a.txt`, "hello\n");
    const { tools } = await createTools(root, {
      unsandboxedBash: false,
      probe: () => Promise.resolve(true),
    });
    await fn(new ToolSet(tools), root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function call(name: string, args: string) {
  return { id: "call_1", name, arguments: args };
}

const signal = new AbortController().signal;

Deno.test("createTools() returns the standard tools in order with checkable schemas", async () => {
  await withToolSet((toolSet) => {
    const definitions = toolSet.definitions();
    assertEquals(definitions.map((definition) => definition.name), [
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
    ]);
    const types = definitions.flatMap((definition) => {
      const { properties } = definition.parameters as {
        properties: Record<string, { type: string }>;
      };
      return Object.entries(properties).map(([name, schema]) => `${name}:${schema.type}`);
    });
    assertEquals(types, [
      "path:string",
      "offset:integer",
      "limit:integer",
      "path:string",
      "content:string",
      "path:string",
      "old_string:string",
      "new_string:string",
      "replace_all:boolean",
      "command:string",
      "timeout_seconds:integer",
      "background:boolean",
      "need_hosts:array",
      "need_dirs:array",
      "items:array",
      "pattern:string",
      "path:string",
      "include:string",
      "ignore_case:boolean",
      "context:integer",
      "include_gitignored:boolean",
      "pattern:string",
      "path:string",
      "include_gitignored:boolean",
      "path:string",
      "depth:integer",
      "include_gitignored:boolean",
      "id:string",
      "id:string",
      "url:string",
      "max_bytes:integer",
    ]);
  });
});

Deno.test("ToolSet.execute() runs a tool call", async () => {
  await withToolSet(async (toolSet) => {
    assertEquals(await toolSet.execute(call("read_file", `{"path":"a.txt"}`), signal), {
      content: "hello\n",
      summary: "1 line",
      isError: false,
      details: { kind: "read", path: "a.txt", firstLine: 1, lastLine: 1, totalLines: 1 },
    });
  });
});

Deno.test("ToolSet.execute() turns an unknown tool into an error result", async () => {
  await withToolSet(async (toolSet) => {
    const message = `Unknown tool "delete_file": available tools are read_file, write_file, ` +
      "edit_file, bash, todo, grep, glob, ls, bash_output, bash_kill, fetch";
    assertEquals(await toolSet.execute(call("delete_file", "{}"), signal), {
      content: `Error: ${message}`,
      summary: message,
      isError: true,
    });
  });
});

Deno.test("ToolSet.execute() turns bad JSON into an error result", async () => {
  await withToolSet(async (toolSet) => {
    const message = `Cannot run read_file: arguments are not valid JSON: "{\\"path\\": a.txt"`;
    assertEquals(await toolSet.execute(call("read_file", `{"path": a.txt`), signal), {
      content: `Error: ${message}`,
      summary: message,
      isError: true,
    });
  });
});

Deno.test("ToolSet.execute() turns a missing argument into an error result", async () => {
  await withToolSet(async (toolSet) => {
    const message = `Cannot run edit_file: missing required argument "new_string"`;
    const args = JSON.stringify({ path: "a.txt", old_string: "hello" });
    assertEquals(await toolSet.execute(call("edit_file", args), signal), {
      content: `Error: ${message}`,
      summary: message,
      isError: true,
    });
  });
});

Deno.test("ToolSet.execute() turns a wrong argument type into an error result", async () => {
  await withToolSet(async (toolSet) => {
    const message = `Cannot run read_file: argument "offset" must be integer, got "2"`;
    assertEquals(
      await toolSet.execute(call("read_file", `{"path":"a.txt","offset":"2"}`), signal),
      {
        content: `Error: ${message}`,
        summary: message,
        isError: true,
      },
    );
  });
});

Deno.test("ToolSet.execute() turns a workspace escape into an error result", async () => {
  await withToolSet(async (toolSet, root) => {
    const message = `Cannot access "../a.txt": path escapes the workspace`;
    const args = JSON.stringify({ path: "../a.txt", content: "x" });
    assertEquals(await toolSet.execute(call("write_file", args), signal), {
      content: `Error: ${message}`,
      summary: message,
      isError: true,
    });
    assertEquals(await Deno.readTextFile(`${root}/a.txt`), "hello\n");
  });
});

/** A tool discovered at run time: its server's JSON schema and a parser of its own. */
function remoteTool(runs: unknown[]): Tool<{ query: string }> {
  return {
    name: "search",
    description: "Searches the docs",
    effect: "read",
    parameters: {
      schema: { type: "object", properties: { query: { type: "string", minLength: 3 } } },
      parse: (args) =>
        typeof args.query === "string" && args.query.length >= 3
          ? { ok: true, args: { query: args.query } }
          : { ok: false, problem: "query must be a string of at least 3 characters" },
    },
    describe: ({ query }) => query,
    execute: (args) => {
      runs.push(args);
      return Promise.resolve({ content: `found ${args.query}`, summary: "1 hit" });
    },
  };
}

Deno.test("ToolSet.definitions() stays the same array until the set changes; the version counts changes", async () => {
  await withToolSet((toolSet) => {
    const first = toolSet.definitions();
    assertEquals(toolSet.version, 0);
    assertStrictEquals(toolSet.definitions(), first);
    toolSet.add(remoteTool([]));
    assertEquals(toolSet.version, 1);
    const added = toolSet.definitions();
    assertEquals(added.map(({ name }) => name), [
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
      "search",
    ]);
    assertEquals(added.at(-1), {
      name: "search",
      description: "Searches the docs",
      parameters: { type: "object", properties: { query: { type: "string", minLength: 3 } } },
    });
    assertEquals(toolSet.remove("search"), true);
    assertEquals(toolSet.remove("search"), false);
    assertEquals(toolSet.version, 2);
    assertEquals(toolSet.definitions(), first);
    assertThrows(
      () => {
        toolSet.add(remoteTool([]));
        toolSet.add(remoteTool([]));
      },
      TypeError,
      'Cannot add tool "search": the set already has a tool of that name',
    );
  });
});

Deno.test("ToolSet.execute() checks arguments with the tool's own parser", async () => {
  const runs: unknown[] = [];
  const toolSet = new ToolSet([remoteTool(runs)]);
  assertEquals(await toolSet.execute(call("search", `{"query":"ab"}`), signal), {
    content: "Error: Cannot run search: query must be a string of at least 3 characters",
    summary: "Cannot run search: query must be a string of at least 3 characters",
    isError: true,
  });
  assertEquals(await toolSet.execute(call("search", `{"query":"abc"}`), signal), {
    content: "found abc",
    summary: "1 hit",
    isError: false,
  });
  assertEquals(runs, [{ query: "abc" }]);
});

Deno.test("ToolSet.execute() asks the policy with effect, arguments and paths; a refusal is an error result", async () => {
  await withToolSet(async (_, root) => {
    const asked: ToolRequest[] = [];
    const { tools } = await createTools(root, {
      unsandboxedBash: false,
      probe: () => Promise.resolve(true),
    });
    const toolSet = new ToolSet(tools, {
      policy: (request) => {
        asked.push(request);
        return request.effect === "read"
          ? { kind: "allow" }
          : { kind: "refuse", reason: "this session only reads; say what you would change" };
      },
    });
    const write = call("write_file", JSON.stringify({ path: "a.txt", content: "bye\n" }));
    const message = "Cannot run write_file: this session only reads; say what you would change";
    assertEquals(await toolSet.execute(write, signal), {
      content: `Error: ${message}`,
      summary: message,
      isError: true,
    });
    assertEquals(
      (await toolSet.execute(call("read_file", `{"path":"a.txt"}`), signal)).content,
      "hello\n",
    );
    assertEquals(await Deno.readTextFile(`${root}/a.txt`), "hello\n");
    assertEquals(asked, [
      {
        name: "write_file",
        effect: "write",
        args: { path: "a.txt", content: "bye\n" },
        paths: { modified: ["a.txt"] },
        id: "call_1",
        signal,
      },
      {
        name: "read_file",
        effect: "read",
        args: { path: "a.txt" },
        paths: { read: ["a.txt"] },
        id: "call_1",
        signal,
      },
    ]);
  });
});

Deno.test("ToolSet.describe() shows a call as its tool describes it", async () => {
  await withToolSet((toolSet) => {
    const describe = (name: string, args: string) => toolSet.describe(call(name, args));
    assertEquals(describe("bash", `{"command":"ls -la\\npwd"}`), {
      kind: "text",
      text: "ls -la\npwd",
    });
    assertEquals(describe("edit_file", `{"path":"a.txt","old_string":"a","new_string":"b"}`), {
      kind: "text",
      text: "a.txt",
    });
    assertEquals(describe("read_file", `{"path": a.txt`), { kind: "malformed" });
    assertEquals(describe("read_file", `{"offset":1}`), { kind: "text", text: "" });
    assertEquals(describe("delete_file", `{"path":"a.txt"}`), { kind: "text", text: "" });
  });
});

Deno.test("the standard tools declare their effects and the system prompt guidance", async () => {
  await withToolSet(async (toolSet, root) => {
    assertEquals(toolSet.guidance(), [
      "Read a file before you change it. Prefer edit_file for small changes and write_file " +
      "for new files.",
      "After changing code, run commands with bash to verify that it works (bash runs " +
      "sandboxed, without network access).",
      "For a task of several steps, keep its todo list with the todo tool as you go.",
    ]);
    const { tools } = await createTools(root, { unsandboxedBash: true });
    assertEquals(tools.map(({ name, effect }) => `${name}:${effect}`), [
      "read_file:read",
      "write_file:write",
      "edit_file:write",
      "bash:exec",
      "todo:track",
      "grep:read",
      "glob:read",
      "ls:read",
      "bash_output:read",
      "bash_kill:exec",
      "fetch:net",
    ]);
  });
});

Deno.test("ToolSet.joined() waits for every joining source, naming what is still awaited", async () => {
  const set = new ToolSet();
  const first = Promise.withResolvers<void>();
  const second = Promise.withResolvers<void>();
  let pending = [{ name: "a", ready: first.promise }, { name: "b", ready: second.promise }];
  set.joining({ waiting: () => pending });
  const told: string[][] = [];
  let done = false;
  const joined = set.joined(new AbortController().signal, (names) => told.push([...names]))
    .then(() => done = true);
  pending = pending.slice(1);
  first.resolve();
  await new Promise((resolve) => setTimeout(resolve, 0));
  assertEquals(done, false, "one source is still on its way");
  pending = [];
  second.resolve();
  await joined;
  assertEquals(told, [["a", "b"], ["b"]]);
  await set.joined(new AbortController().signal, () => {
    throw new Error("nothing is awaited any more");
  });
});

Deno.test("ToolSet.joined() rejects with the reason when the signal aborts first", async () => {
  const set = new ToolSet();
  set.joining({ waiting: () => [{ name: "slow", ready: new Promise(() => {}) }] });
  const controller = new AbortController();
  const joined = set.joined(controller.signal, () => {});
  controller.abort(new Error("interrupted"));
  const error = await joined.catch((error) => error);
  assertEquals(error instanceof Error ? error.message : error, "interrupted");
});
