import { assertEquals, assertRejects } from "@std/assert";
import type { Workspace } from "../../../src/workspace/workspace.ts";
import { createEditFileTool } from "../../../src/tools/edit_file.ts";
import type { ToolOutput } from "../../../src/tools/tool.ts";
import { withWorkspace } from "../../support/workspace.ts";

function edit(
  workspace: Workspace,
  args: Parameters<ReturnType<typeof createEditFileTool>["execute"]>[0],
): Promise<ToolOutput> {
  const signal = new AbortController().signal;
  return createEditFileTool(workspace).execute(args, { signal });
}

const SOURCE = "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 1;\n}\n";

Deno.test("editFile() replaces unique text and reports the lines changed", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/a.ts`, SOURCE);
    const result = await edit(workspace, {
      path: "a.ts",
      old_string: "function b() {\n  return 1;",
      new_string: "function b() {\n  const two = 2;\n  return two;",
    });
    assertEquals(result, {
      content: `Edited "a.ts": replaced 1 occurrence; changed lines 5-7`,
      summary: "lines 5-7",
      details: {
        kind: "edit",
        path: "a.ts",
        occurrences: 1,
        removed: ["  return 1;"],
        added: ["  const two = 2;", "  return two;"],
        removedCount: 1,
        addedCount: 2,
        firstLine: 6,
        before: ["", "function b() {"],
        after: ["}"],
      },
    });
    assertEquals(
      await Deno.readTextFile(`${workspace.root}/a.ts`),
      "function a() {\n  return 1;\n}\n\nfunction b() {\n  const two = 2;\n  return two;\n}\n",
    );
    assertEquals((await Array.fromAsync(Deno.readDir(workspace.root))).length, 1);
  });
});

Deno.test("editFile() refuses text that occurs twice", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/a.ts`, SOURCE);
    await assertRejects(
      () => edit(workspace, { path: "a.ts", old_string: "return 1;", new_string: "return 2;" }),
      Error,
      `Cannot edit "a.ts": old_string occurs 2 times; add surrounding lines to make it ` +
        "unique, or set replace_all to replace every occurrence",
    );
    assertEquals(await Deno.readTextFile(`${workspace.root}/a.ts`), SOURCE);
  });
});

Deno.test("editFile() replaces every occurrence with replace_all", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/a.ts`, SOURCE);
    const result = await edit(workspace, {
      path: "a.ts",
      old_string: "return 1;",
      new_string: "return $&;",
      replace_all: true,
    });
    assertEquals(result, {
      content: `Edited "a.ts": replaced 2 occurrences; changed lines 2, 6`,
      summary: "lines 2, 6",
      details: {
        kind: "edit",
        path: "a.ts",
        occurrences: 2,
        removed: ["  return 1;"],
        added: ["  return $&;"],
        removedCount: 1,
        addedCount: 1,
        firstLine: 2,
        before: ["function a() {"],
        after: ["}", ""],
      },
    });
    assertEquals(
      await Deno.readTextFile(`${workspace.root}/a.ts`),
      SOURCE.replaceAll("return 1;", () => "return $&;"),
    );
  });
});

Deno.test("editFile() refuses missing, empty and unchanged text", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/a.ts`, SOURCE);
    await assertRejects(
      () => edit(workspace, { path: "a.ts", old_string: "return 3;", new_string: "x" }),
      Error,
      `Cannot edit "a.ts": old_string was not found; read the file again and copy the text ` +
        "exactly, including whitespace and indentation",
    );
    await assertRejects(
      () => edit(workspace, { path: "a.ts", old_string: "", new_string: "x" }),
      TypeError,
      `Cannot edit "a.ts": old_string is empty; to create or rewrite a file use write_file`,
    );
    await assertRejects(
      () => edit(workspace, { path: "a.ts", old_string: "a()", new_string: "a()" }),
      TypeError,
      `Cannot edit "a.ts": old_string and new_string are identical`,
    );
    await assertRejects(
      () => edit(workspace, { path: "new.ts", old_string: "a", new_string: "b" }),
      Deno.errors.NotFound,
      `Cannot edit "new.ts": file not found`,
    );
    assertEquals(await Deno.readTextFile(`${workspace.root}/a.ts`), SOURCE);
  });
});

Deno.test("editFile() matches LF text in a CRLF file and keeps CRLF", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/win.txt`, "one\r\ntwo\r\nthree\r\n");
    const result = await edit(workspace, {
      path: "win.txt",
      old_string: "one\ntwo",
      new_string: "1\n2",
    });
    assertEquals(result, {
      content: `Edited "win.txt": replaced 1 occurrence; changed lines 1-2`,
      summary: "lines 1-2",
      details: {
        kind: "edit",
        path: "win.txt",
        occurrences: 1,
        removed: ["one", "two"],
        added: ["1", "2"],
        removedCount: 2,
        addedCount: 2,
        firstLine: 1,
        before: [],
        after: ["three"],
      },
    });
    assertEquals(await Deno.readTextFile(`${workspace.root}/win.txt`), "1\r\n2\r\nthree\r\n");
  });
});

Deno.test("editFile() deletes text and reports the line", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/a.txt`, "keep\ndrop\nkeep too\n");
    assertEquals(await edit(workspace, { path: "a.txt", old_string: "drop\n", new_string: "" }), {
      content: `Edited "a.txt": replaced 1 occurrence; changed line 2`,
      summary: "line 2",
      details: {
        kind: "edit",
        path: "a.txt",
        occurrences: 1,
        removed: ["drop"],
        added: [],
        removedCount: 1,
        addedCount: 0,
        firstLine: 2,
        before: ["keep"],
        after: ["keep too"],
      },
    });
    assertEquals(await Deno.readTextFile(`${workspace.root}/a.txt`), "keep\nkeep too\n");
  });
});

Deno.test("editFile() refuses files outside the workspace", async () => {
  await withWorkspace(async (workspace, parent) => {
    await Deno.writeTextFile(`${parent}/outside/secret.txt`, "secret");
    await Deno.symlink(`${parent}/outside/secret.txt`, `${workspace.root}/file-link`);
    await Deno.symlink(`${parent}/outside`, `${workspace.root}/dir-link`);
    for (const path of ["../outside/secret.txt", "file-link", "dir-link/secret.txt"]) {
      await assertRejects(
        () => edit(workspace, { path, old_string: "secret", new_string: "pwned" }),
        Deno.errors.PermissionDenied,
        `Cannot access "${path}": path escapes the workspace`,
      );
    }
    assertEquals(await Deno.readTextFile(`${parent}/outside/secret.txt`), "secret");
  });
});

Deno.test("editFile() refuses binary files", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeFile(`${workspace.root}/a.bin`, new Uint8Array([97, 0, 98]));
    await assertRejects(
      () => edit(workspace, { path: "a.bin", old_string: "a", new_string: "b" }),
      TypeError,
      `Cannot edit "a.bin": binary file (it contains NUL bytes)`,
    );
  });
});

Deno.test("editFile() refuses a file larger than 10 MB and an edit that would make one", async () => {
  await withWorkspace(async (workspace) => {
    const big = `${workspace.root}/big.txt`;
    await Deno.writeTextFile(big, "x".repeat(10 * 1024 * 1024 + 1));
    await assertRejects(
      () => edit(workspace, { path: "big.txt", old_string: "x", new_string: "y" }),
      RangeError,
      `Cannot edit "big.txt": the file is 10.0 MB, more than the 10.0 MB edit_file changes; ` +
        "change it with bash (sed, a script)",
    );
    await Deno.writeTextFile(`${workspace.root}/a.txt`, "ab".repeat(1024 * 1024));
    await assertRejects(
      () =>
        edit(workspace, {
          path: "a.txt",
          old_string: "a",
          new_string: "a".repeat(10),
          replace_all: true,
        }),
      RangeError,
      `Cannot edit "a.txt": the new content is 11.0 MB, more than the 10.0 MB the file tools ` +
        "write; produce large files with bash",
    );
    assertEquals(await Deno.readTextFile(`${workspace.root}/a.txt`), "ab".repeat(1024 * 1024));
  });
});
