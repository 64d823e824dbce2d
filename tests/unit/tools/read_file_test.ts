import { assert, assertEquals, assertRejects } from "@std/assert";
import type { Workspace } from "../../../src/workspace/workspace.ts";
import { createReadFileTool } from "../../../src/tools/read_file.ts";
import type { ToolOutput } from "../../../src/tools/tool.ts";
import { within } from "../../support/special_files.ts";
import { withWorkspace } from "../../support/workspace.ts";

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
      details: { kind: "read", path: "a.txt", firstLine: 1, lastLine: 3, totalLines: 3 },
    });
  });
});

Deno.test("readFile() reads a page with offset and limit and says how to read on", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/a.txt`, numbered(1, 5));
    assertEquals(await read(workspace, { path: "a.txt", offset: 2, limit: 2 }), {
      content: "line 2\nline 3\n\n[Showing lines 2-3 of 5. Use offset=4 to read on]",
      summary: "lines 2-3 of 5",
      details: { kind: "read", path: "a.txt", firstLine: 2, lastLine: 3, totalLines: 5 },
    });
    assertEquals(await read(workspace, { path: "a.txt", offset: 4 }), {
      content: "line 4\nline 5\n",
      summary: "lines 4-5 of 5",
      details: { kind: "read", path: "a.txt", firstLine: 4, lastLine: 5, totalLines: 5 },
    });
  });
});

Deno.test("readFile() stops at 2000 lines", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/long.txt`, numbered(1, 2500));
    assertEquals(await read(workspace, { path: "long.txt", limit: 5000 }), {
      content: `${numbered(1, 2000)}\n[Showing lines 1-2000 of 2500. Use offset=2001 to read on]`,
      summary: "lines 1-2000 of 2500",
      details: { kind: "read", path: "long.txt", firstLine: 1, lastLine: 2000, totalLines: 2500 },
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
      details: { kind: "read", path: "wide.txt", firstLine: 1, lastLine: 512, totalLines: 1000 },
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
      details: { kind: "read", path: "min.js", firstLine: 1, lastLine: 1, totalLines: 2 },
    });
  });
});

Deno.test("readFile() reports an empty file", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/empty.txt`, "");
    assertEquals(await read(workspace, { path: "empty.txt" }), {
      content: "(empty file)",
      summary: "0 lines",
      details: { kind: "read", path: "empty.txt", firstLine: 0, lastLine: 0, totalLines: 0 },
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

Deno.test("readFile() counts a last line without a newline", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/a.txt`, "one\ntwo");
    assertEquals(await read(workspace, { path: "a.txt", offset: 2 }), {
      content: "two",
      summary: "line 2 of 2",
      details: { kind: "read", path: "a.txt", firstLine: 2, lastLine: 2, totalLines: 2 },
    });
    await assertRejects(
      () => read(workspace, { path: "a.txt", offset: 3 }),
      RangeError,
      `Cannot read "a.txt": offset 3 is past the end of the file (2 lines)`,
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

/** An 8 GB sparse file at `path` that starts with `text`; the rest reads as NUL bytes. */
async function sparse(path: string, text: string): Promise<void> {
  await Deno.writeTextFile(path, text);
  await Deno.truncate(path, 8 * 1024 ** 3);
}

Deno.test("readFile() pages an 8 GB file at once, reading only what it returns", async () => {
  await withWorkspace(async (workspace) => {
    await sparse(`${workspace.root}/huge.log`, numbered(1, 3000));
    const started = Date.now();
    assertEquals(await within(2000, read(workspace, { path: "huge.log" })), {
      content: `${numbered(1, 2000)}\n[Showing lines 1-2000; the file is too large to count ` +
        "its lines. Use offset=2001 to read on]",
      summary: "lines 1-2000 (8.0 GB file)",
      details: { kind: "read", path: "huge.log", firstLine: 1, lastLine: 2000 },
    });
    assertEquals(await within(2000, read(workspace, { path: "huge.log", offset: 2001 })), {
      content: `${numbered(2001, 3000)}\n[Showing lines 2001-3000; the file is too large to ` +
        "count its lines. Use offset=3001 to read on]",
      summary: "lines 2001-3000 (8.0 GB file)",
      details: { kind: "read", path: "huge.log", firstLine: 2001, lastLine: 3000 },
    });
    await assertRejects(
      () => within(2000, read(workspace, { path: "huge.log", offset: 3001 })),
      TypeError,
      `Cannot read "huge.log": binary file (it contains NUL bytes)`,
    );
    assert(Date.now() - started < 3000, `took ${Date.now() - started} ms`);
  });
});

Deno.test("readFile() refuses a line beyond the first 64 MB of a huge file and says how to read it", async () => {
  await withWorkspace(async (workspace) => {
    await sparse(`${workspace.root}/huge.log`, numbered(1, 10));
    await assertRejects(
      () => within(5000, read(workspace, { path: "huge.log", offset: 12 })),
      RangeError,
      `Cannot read "huge.log": line 12 starts beyond the first 64 MB of the file; read on from ` +
        "there with bash (sed -n '12,+199p' FILE)",
    );
  });
});

Deno.test("readFile() refuses an 8 GB file of NUL bytes at once", async () => {
  await withWorkspace(async (workspace) => {
    await sparse(`${workspace.root}/disk.img`, "");
    await assertRejects(
      () => within(2000, read(workspace, { path: "disk.img" })),
      TypeError,
      `Cannot read "disk.img": binary file (it contains NUL bytes)`,
    );
  });
});

Deno.test("readFile() reads the end of a 40 MB file and counts all its lines", async () => {
  await withWorkspace(async (workspace) => {
    const line = `${"y".repeat(39)}\n`;
    await Deno.writeTextFile(`${workspace.root}/big.txt`, line.repeat(1024 * 1024));
    assertEquals(await read(workspace, { path: "big.txt", offset: 1048575 }), {
      content: line.repeat(2),
      summary: "lines 1048575-1048576 of 1048576",
      details: {
        kind: "read",
        path: "big.txt",
        firstLine: 1048575,
        lastLine: 1048576,
        totalLines: 1048576,
      },
    });
  });
});

Deno.test("readFile() stops when the task is interrupted", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/a.txt`, numbered(1, 100_000));
    const controller = new AbortController();
    controller.abort();
    const tool = createReadFileTool(workspace);
    const error = await assertRejects(() =>
      tool.execute({ path: "a.txt", offset: 90_000 }, { signal: controller.signal })
    );
    assertEquals(error instanceof DOMException && error.name, "AbortError");
  });
});
