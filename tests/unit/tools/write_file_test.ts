import { assertEquals, assertRejects } from "@std/assert";
import type { Workspace } from "../../../src/workspace/workspace.ts";
import { createWriteFileTool } from "../../../src/tools/write_file.ts";
import type { ToolOutput } from "../../../src/tools/tool.ts";
import { withWorkspace } from "../../support/workspace.ts";

function write(workspace: Workspace, path: string, content: string): Promise<ToolOutput> {
  const signal = new AbortController().signal;
  return createWriteFileTool(workspace).execute({ path, content }, { signal });
}

async function names(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((entry) => entry.name).sort();
}

Deno.test("writeFile() creates parent directories and reports bytes written", async () => {
  await withWorkspace(async (workspace) => {
    assertEquals(await write(workspace, "a/b/c.txt", "héllo"), {
      content: `Wrote 6 bytes to "a/b/c.txt" (new file)`,
      summary: "created, 1 line, 6 B",
      details: { kind: "write", path: "a/b/c.txt", created: true, lines: 1, bytes: 6 },
    });
    assertEquals(await Deno.readTextFile(`${workspace.root}/a/b/c.txt`), "héllo");
    assertEquals(await names(`${workspace.root}/a/b`), ["c.txt"]);
  });
});

Deno.test("writeFile() replaces a file atomically and keeps its mode", async () => {
  await withWorkspace(async (workspace) => {
    const path = `${workspace.root}/run.sh`;
    await Deno.writeTextFile(path, "old content");
    await Deno.chmod(path, 0o755);
    const before = await Deno.stat(path);
    assertEquals(await write(workspace, "run.sh", "#!/bin/sh\n"), {
      content: `Wrote 10 bytes to "run.sh" (replaced 11 bytes)`,
      summary: "overwritten, 1 line, 10 B",
      details: { kind: "write", path: "run.sh", created: false, lines: 1, bytes: 10 },
    });
    const after = await Deno.stat(path);
    assertEquals(await Deno.readTextFile(path), "#!/bin/sh\n");
    assertEquals((after.mode ?? 0) & 0o777, 0o755);
    assertEquals(after.ino === before.ino, false, "a rename gives the file a new inode");
    assertEquals(await names(workspace.root), ["run.sh"]);
  });
});

Deno.test("writeFile() writes through a symlink inside to its target", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/target.txt`, "old");
    await Deno.symlink("target.txt", `${workspace.root}/link.txt`);
    await write(workspace, "link.txt", "new");
    assertEquals(await Deno.readTextFile(`${workspace.root}/target.txt`), "new");
    assertEquals((await Deno.lstat(`${workspace.root}/link.txt`)).isSymlink, true);
  });
});

Deno.test("writeFile() refuses a directory", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.mkdir(`${workspace.root}/dir`);
    await assertRejects(
      () => write(workspace, "dir", "x"),
      Deno.errors.IsADirectory,
      `Cannot write "dir": it is a directory`,
    );
  });
});

Deno.test("writeFile() refuses a path below a file", async () => {
  await withWorkspace(async (workspace) => {
    await Deno.writeTextFile(`${workspace.root}/file`, "x");
    for (const path of ["file/new.txt", "file/deeper/new.txt"]) {
      await assertRejects(
        () => write(workspace, path, "x"),
        Deno.errors.NotADirectory,
        `Cannot write "${path}": a parent of it is a file, not a directory`,
      );
    }
  });
});

Deno.test("writeFile() refuses paths that escape the workspace", async () => {
  await withWorkspace(async (workspace, parent) => {
    await Deno.symlink(`${parent}/outside`, `${workspace.root}/out`);
    await Deno.writeTextFile(`${parent}/outside/secret.txt`, "secret");
    await Deno.symlink(`${parent}/outside/secret.txt`, `${workspace.root}/secret.txt`);
    for (
      const path of [
        "../outside/new.txt",
        `${parent}/outside/new.txt`,
        "out/new.txt",
        "out/deeper/new.txt",
        "secret.txt",
      ]
    ) {
      await assertRejects(
        () => write(workspace, path, "pwned"),
        Deno.errors.PermissionDenied,
        `Cannot access "${path}": path escapes the workspace`,
      );
    }
    assertEquals(await names(`${parent}/outside`), ["secret.txt"]);
    assertEquals(await Deno.readTextFile(`${parent}/outside/secret.txt`), "secret");
  });
});

Deno.test("writeFile() refuses a dangling symlink", async () => {
  await withWorkspace(async (workspace, parent) => {
    await Deno.symlink(`${parent}/outside/later.txt`, `${workspace.root}/later.txt`);
    await assertRejects(
      () => write(workspace, "later.txt", "pwned"),
      Deno.errors.NotFound,
      `Cannot access "later.txt": "later.txt" is a dangling symbolic link`,
    );
    assertEquals(await names(`${parent}/outside`), []);
  });
});

Deno.test("writeFile() refuses content larger than 10 MB", async () => {
  await withWorkspace(async (workspace) => {
    await assertRejects(
      () => write(workspace, "big.txt", "é".repeat(5 * 1024 * 1024 + 1)),
      RangeError,
      `Cannot write "big.txt": the new content is 10.0 MB, more than the 10.0 MB the file ` +
        "tools write; produce large files with bash",
    );
    assertEquals(await names(workspace.root), []);
  });
});

Deno.test("writeFile() writes file names up to the 255-byte limit", async () => {
  await withWorkspace(async (workspace) => {
    for (const length of [241, 242, 255]) {
      const name = "n".repeat(length);
      assertEquals((await write(workspace, name, "x")).summary, "created, 1 line, 1 B");
      assertEquals(await Deno.readTextFile(`${workspace.root}/${name}`), "x");
    }
    assertEquals(await names(workspace.root), [241, 242, 255].map((n) => "n".repeat(n)));
  });
});
