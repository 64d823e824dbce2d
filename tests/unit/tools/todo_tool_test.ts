import { assertEquals, assertRejects } from "@std/assert";
import type { TodoItem } from "../../../src/core/todo.ts";
import { createTodoTool, todoItemsOf, unfinishedTodo } from "../../../src/tools/todo.ts";
import type { Workspace } from "../../../src/workspace/workspace.ts";
import { withWorkspace } from "../../support/workspace.ts";

const ITEMS: TodoItem[] = [
  { text: "Read the parser", status: "done" },
  { text: "Write the test", status: "in_progress" },
  { text: "Run the suite", status: "pending" },
];
const TODO_MD = "# TODO\n\n- [x] Read the parser\n- [ ] Write the test (in progress)\n" +
  "- [ ] Run the suite\n";

function todo(workspace: Workspace, items: TodoItem[]) {
  return createTodoTool(workspace).execute({ items }, { signal: new AbortController().signal });
}

Deno.test("todo writes TODO.md at the root, with the list in its details only when it changed", async () => {
  await withWorkspace(async (workspace) => {
    assertEquals(await todo(workspace, ITEMS), {
      content: "Wrote TODO.md: 1 of 3 done; in progress: Write the test",
      summary: "1/3 done",
      details: { kind: "checklist", items: ITEMS },
    });
    assertEquals(await Deno.readTextFile(`${workspace.root}/TODO.md`), TODO_MD);
    assertEquals(await todo(workspace, ITEMS), {
      content: "TODO.md is unchanged: 1 of 3 done; in progress: Write the test",
      summary: "1/3 done, unchanged",
    });
    const done = ITEMS.map((item) => ({ ...item, status: "done" as const }));
    assertEquals((await todo(workspace, done)).content, "Wrote TODO.md: 3 of 3 done");
  });
});

Deno.test("todo refuses a TODO.md that is a symbolic link or a directory, and writes nothing", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/main.ts`, "code\n");
    await Deno.symlink("main.ts", `${workspace.root}/TODO.md`);
    await assertRejects(
      () => todo(workspace, ITEMS),
      Error,
      'Cannot write "TODO.md": it is a symbolic link to "main.ts"; ask the user to remove the link',
    );
    assertEquals(await Deno.readTextFile(`${workspace.root}/main.ts`), "code\n");
    await Deno.remove(`${workspace.root}/TODO.md`);
    await Deno.mkdir(`${workspace.root}/TODO.md`);
    await assertRejects(
      () => todo(workspace, ITEMS),
      Deno.errors.IsADirectory,
      'Cannot write "TODO.md": it is a directory',
    );
  });
});

Deno.test("the todo tool shows a call as the count and the step in progress", async () => {
  await withWorkspace((workspace) => {
    const tool = createTodoTool(workspace);
    assertEquals(tool.describe({ items: ITEMS }), "1/3 · Write the test");
    assertEquals(tool.describe({ items: [ITEMS[0]!] }), "1/1");
    assertEquals(tool.effect, "track");
    return Promise.resolve();
  });
});

Deno.test("todoItemsOf() reads the list of a todo call the tool would take, and nothing else", () => {
  const call = (name: string, args: string) => ({ id: "c", name, arguments: args });
  assertEquals(todoItemsOf(call("todo", JSON.stringify({ items: ITEMS }))), ITEMS);
  assertEquals(todoItemsOf(call("write_file", JSON.stringify({ items: ITEMS }))), undefined);
  assertEquals(todoItemsOf(call("todo", '{"items": []}')), undefined);
  assertEquals(todoItemsOf(call("todo", "{oops")), undefined);
});

Deno.test("unfinishedTodo() lists the steps of TODO.md not done; none without a readable file", async () => {
  await withWorkspace(async (workspace) => {
    assertEquals(await unfinishedTodo(workspace), []);
    await Deno.writeTextFile(`${workspace.root}/TODO.md`, TODO_MD);
    assertEquals(await unfinishedTodo(workspace), ITEMS.slice(1));
    await Deno.writeFile(`${workspace.root}/TODO.md`, new Uint8Array([0x2d, 0, 0xff]));
    assertEquals(await unfinishedTodo(workspace), []);
  });
});
