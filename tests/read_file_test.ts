import { assertEquals, assertRejects } from "@std/assert";
import type { Workspace } from "../src/tools/workspace.ts";
import { createReadFileTool } from "../src/tools/read_file.ts";
import type { ToolOutput } from "../src/tools/registry.ts";
import { withWorkspace } from "./support/workspace.ts";

function read(
  workspace: Workspace,
  args: Parameters<ReturnType<typeof createReadFileTool>["execute"]>[0],
): Promise<ToolOutput> {
  const signal = new AbortController().signal;
  return createReadFileTool(workspace).execute(args, { signal });
}

function numbered(from: number, to: number): string {
  return Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}\n`).join("");
}

Deno.test("readFile() returns a small file whole", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/a.txt`, "one\ntwo\nthree");
    assertEquals(await read(workspace, { path: "a.txt" }), {
      content: "one\ntwo\nthree",
      summary: "3 lines",
    });
  });
});

Deno.test("readFile() reads a page with offset and limit and says how to read on", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/a.txt`, numbered(1, 5));
    assertEquals(await read(workspace, { path: "a.txt", offset: 2, limit: 2 }), {
      content: "line 2\nline 3\n\n[Showing lines 2-3 of 5. Use offset=4 to read on]",
      summary: "lines 2-3 of 5",
    });
    assertEquals(await read(workspace, { path: "a.txt", offset: 4 }), {
      content: "line 4\nline 5\n",
      summary: "lines 4-5 of 5",
    });
  });
});

Deno.test("readFile() stops at 2000 lines", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/long.txt`, numbered(1, 2500));
    assertEquals(await read(workspace, { path: "long.txt", limit: 5000 }), {
      content: `${numbered(1, 2000)}\n[Showing lines 1-2000 of 2500. Use offset=2001 to read on]`,
      summary: "lines 1-2000 of 2500",
    });
  });
});

Deno.test("readFile() stops at 50 KB", async () => {
  await withWorkspace(async (workspace) => {
    const line = `${"x".repeat(99)}\n`;
    await Deno.writeTextFile(`${workspace.root}/wide.txt`, line.repeat(1000));
    assertEquals(await read(workspace, { path: "wide.txt" }), {
      content: `${line.repeat(512)}\n[Showing lines 1-512 of 1000. Use offset=513 to read on]`,
      summary: "lines 1-512 of 1000",
    });
  });
});

Deno.test("readFile() shows the start of a line longer than 50 KB", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/min.js`, `${"é".repeat(30000)}\nend\n`);
    assertEquals(await read(workspace, { path: "min.js" }), {
      content: `${"é".repeat(25600)}\n\n[Line 1 is longer than 50.0 KB: showing only its start; ` +
        `see the rest with bash (sed -n '1p' FILE | cut -b 51201-). Use offset=2 to read on]`,
      summary: "line 1 of 2",
    });
  });
});

Deno.test("readFile() reports an empty file", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/empty.txt`, "");
    assertEquals(await read(workspace, { path: "empty.txt" }), {
      content: "(empty file)",
      summary: "0 lines",
    });
  });
});

Deno.test("readFile() refuses an offset past the end and bad numbers", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/a.txt`, numbered(1, 3));
    await assertRejects(
      () => read(workspace, { path: "a.txt", offset: 4 }),
      RangeError,
      `Cannot read "a.txt": offset 4 is past the end of the file (3 lines)`,
    );
    await assertRejects(
      () => read(workspace, { path: "a.txt", offset: 0 }),
      RangeError,
      `Cannot read "a.txt": offset and limit must be positive integers, got offset 0 and limit 2000`,
    );
  });
});

Deno.test("readFile() refuses binary files", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeFile(`${workspace.root}/nul.bin`, new Uint8Array([104, 105, 0, 1]));
    await Deno.writeFile(`${workspace.root}/latin1.txt`, new Uint8Array([0x63, 0x61, 0xe9]));
    await assertRejects(
      () => read(workspace, { path: "nul.bin" }),
      TypeError,
      `Cannot read "nul.bin": binary file (it contains NUL bytes)`,
    );
    await assertRejects(
      () => read(workspace, { path: "latin1.txt" }),
      TypeError,
      `Cannot read "latin1.txt": binary file (it is not valid UTF-8)`,
    );
  });
});

Deno.test("readFile() refuses missing files and directories", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.mkdir(`${workspace.root}/dir`);
    await assertRejects(
      () => read(workspace, { path: "nope.txt" }),
      Deno.errors.NotFound,
      `Cannot read "nope.txt": file not found`,
    );
    await assertRejects(
      () => read(workspace, { path: "dir" }),
      Deno.errors.IsADirectory,
      `Cannot read "dir": it is a directory; list it with bash (ls)`,
    );
  });
});

Deno.test("readFile() refuses paths that escape the workspace", async () => {
  await withWorkspace(async (workspace, parent) => {
    await Deno.writeTextFile(`${parent}/outside/secret.txt`, "secret");
    await Deno.symlink(`${parent}/outside/secret.txt`, `${workspace.root}/file-link`);
    await Deno.symlink(`${parent}/outside`, `${workspace.root}/dir-link`);
    for (
      const path of [
        "../outside/secret.txt",
        `${parent}/outside/secret.txt`,
        "file-link",
        "dir-link/secret.txt",
      ]
    ) {
      await assertRejects(
        () => read(workspace, { path }),
        Deno.errors.PermissionDenied,
        `Cannot access "${path}": path escapes the workspace`,
      );
    }
  });
});
