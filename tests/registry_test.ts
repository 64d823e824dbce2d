import { assertEquals } from "@std/assert";
import { createTools } from "../src/tools/mod.ts";
import { ToolRegistry } from "../src/tools/registry.ts";

/** Runs `fn` with a registry of all tools on a temp workspace holding `a.txt`. */
async function withRegistry(
  fn: (registry: ToolRegistry, root: string) => Promise<void> | void,
): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "powercode_registry_" }));
  try {
    await Deno.writeTextFile(`${root}/a.txt`, "hello\n");
    const { tools } = await createTools(root, {
      unsandboxedBash: false,
      probe: () => Promise.resolve(true),
    });
    await fn(new ToolRegistry(tools), root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function call(name: string, args: string) {
  return { id: "call_1", name, arguments: args };
}

const signal = new AbortController().signal;

Deno.test("createTools() returns the four tools in order with checkable schemas", async () => {
  await withRegistry((registry) => {
    const definitions = registry.definitions();
    assertEquals(definitions.map((definition) => definition.name), [
      "read_file",
      "write_file",
      "edit_file",
      "bash",
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
    ]);
  });
});

Deno.test("ToolRegistry.execute() runs a tool call", async () => {
  await withRegistry(async (registry) => {
    assertEquals(await registry.execute(call("read_file", `{"path":"a.txt"}`), signal), {
      ok: true,
      content: "hello\n",
      summary: "1 line",
    });
  });
});

Deno.test("ToolRegistry.execute() turns an unknown tool into an error result", async () => {
  await withRegistry(async (registry) => {
    const message = `Unknown tool "delete_file": available tools are read_file, write_file, ` +
      "edit_file, bash";
    assertEquals(await registry.execute(call("delete_file", "{}"), signal), {
      ok: false,
      content: `Error: ${message}`,
      summary: message,
    });
  });
});

Deno.test("ToolRegistry.execute() turns bad JSON into an error result", async () => {
  await withRegistry(async (registry) => {
    const message = `Cannot run read_file: arguments are not valid JSON: "{\\"path\\": a.txt"`;
    assertEquals(await registry.execute(call("read_file", `{"path": a.txt`), signal), {
      ok: false,
      content: `Error: ${message}`,
      summary: message,
    });
  });
});

Deno.test("ToolRegistry.execute() turns a missing argument into an error result", async () => {
  await withRegistry(async (registry) => {
    const message = `Cannot run edit_file: missing required argument "new_string"`;
    const args = JSON.stringify({ path: "a.txt", old_string: "hello" });
    assertEquals(await registry.execute(call("edit_file", args), signal), {
      ok: false,
      content: `Error: ${message}`,
      summary: message,
    });
  });
});

Deno.test("ToolRegistry.execute() turns a wrong argument type into an error result", async () => {
  await withRegistry(async (registry) => {
    const message = `Cannot run read_file: argument "offset" must be integer, got "2"`;
    assertEquals(
      await registry.execute(call("read_file", `{"path":"a.txt","offset":"2"}`), signal),
      {
        ok: false,
        content: `Error: ${message}`,
        summary: message,
      },
    );
  });
});

Deno.test("ToolRegistry.execute() turns a workspace escape into an error result", async () => {
  await withRegistry(async (registry, root) => {
    const message = `Cannot access "../a.txt": path escapes the workspace`;
    const args = JSON.stringify({ path: "../a.txt", content: "x" });
    assertEquals(await registry.execute(call("write_file", args), signal), {
      ok: false,
      content: `Error: ${message}`,
      summary: message,
    });
    assertEquals(await Deno.readTextFile(`${root}/a.txt`), "hello\n");
  });
});
