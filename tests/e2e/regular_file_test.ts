/**
 * FIFOs, sockets and device nodes in the workspace: the file tools refuse them at once,
 * never waiting for a writer, also when one is swapped in while a tool looks at the file.
 */
import { assert, assertEquals, assertRejects } from "@std/assert";
import { createEditFileTool } from "../../src/tools/edit_file.ts";
import { createReadFileTool } from "../../src/tools/read_file.ts";
import type { Workspace } from "../../src/workspace/workspace.ts";
import { createWriteFileTool } from "../../src/tools/write_file.ts";
import {
  makeCharDevice,
  makeFifo,
  makeSocket,
  runningAsRoot,
  within,
} from "../support/special_files.ts";
import { withWorkspace } from "../support/workspace.ts";

const signal = new AbortController().signal;

/** Every way a file tool can touch `path`, each bounded to 2 s. */
function touch(workspace: Workspace, path: string) {
  return {
    read: () => within(2000, createReadFileTool(workspace).execute({ path }, { signal })),
    edit: () =>
      within(
        2000,
        createEditFileTool(workspace).execute({ path, old_string: "a", new_string: "b" }, {
          signal,
        }),
      ),
    write: () =>
      within(2000, createWriteFileTool(workspace).execute({ path, content: "x" }, { signal })),
  };
}

async function assertRefused(workspace: Workspace, path: string, kind: string): Promise<void> {
  const tools = touch(workspace, path);
  for (
    const [action, call] of [["read", tools.read], ["edit", tools.edit], ["write", tools.write]]
  ) {
    await assertRejects(
      call as () => Promise<unknown>,
      TypeError,
      `Cannot ${action} "${path}": it is ${kind}, not a regular file; only regular files can ` +
        "be read or changed",
    );
  }
}

Deno.test("read_file, edit_file and write_file refuse a FIFO at once, with no writer", async () => {
  await withWorkspace(async (workspace) => {
    await makeFifo(`${workspace.root}/pipe`);
    await assertRefused(workspace, "pipe", "a FIFO (named pipe)");
    assert((await Deno.lstat(`${workspace.root}/pipe`)).isFifo, "the FIFO was replaced");
  });
});

Deno.test("read_file, edit_file and write_file refuse a FIFO reached through a symlink", async () => {
  await withWorkspace(async (workspace) => {
    await makeFifo(`${workspace.root}/pipe`);
    await Deno.symlink("pipe", `${workspace.root}/notes.txt`);
    await assertRefused(workspace, "notes.txt", "a FIFO (named pipe)");
  });
});

Deno.test("read_file, edit_file and write_file refuse a Unix socket", async () => {
  await withWorkspace(async (workspace) => {
    using _socket = makeSocket(`${workspace.root}/sock`);
    await assertRefused(workspace, "sock", "a socket");
  });
});

Deno.test({
  name: "read_file, edit_file and write_file refuse a character device (as root)",
  ignore: !runningAsRoot(),
  fn: async () => {
    await withWorkspace(async (workspace) => {
      assert(await makeCharDevice(`${workspace.root}/null`), "mknod failed as root");
      await assertRefused(workspace, "null", "a character device");
    });
  },
});

Deno.test("read_file never blocks when a FIFO replaces the file between its check and its open", async () => {
  await withWorkspace(async (workspace, parent) => {
    const target = `${workspace.root}/flip.txt`;
    await Deno.writeTextFile(`${parent}/regular`, "plain text\n");
    await makeFifo(`${parent}/fifo`);
    let stop = false;
    // Swaps flip.txt between a FIFO and a regular file as fast as renames go.
    const swapper = (async () => {
      while (!stop) {
        await Deno.rename(`${parent}/fifo`, target);
        await Deno.rename(target, `${parent}/fifo`);
        await Deno.rename(`${parent}/regular`, target);
        await Deno.rename(target, `${parent}/regular`);
      }
    })();
    const outcomes = new Set<string>();
    try {
      for (let i = 0; i < 400; i++) {
        outcomes.add(
          await touch(workspace, "flip.txt").read().then(
            (output) => output.content,
            (error: Error) => error.message,
          ),
        );
      }
    } finally {
      stop = true;
      await swapper;
    }
    const allowed = new Set([
      "plain text\n",
      `Cannot read "flip.txt": file not found`,
      // The workspace's own check can see the name vanish between lstat and realpath.
      `Cannot access "flip.txt": "flip.txt" is a dangling symbolic link`,
      `Cannot read "flip.txt": it is a FIFO (named pipe), not a regular file; only regular ` +
      "files can be read or changed",
    ]);
    for (const outcome of outcomes) assert(allowed.has(outcome), `unexpected: ${outcome}`);
    assertEquals(outcomes.has("plain text\n"), true);
  });
});
