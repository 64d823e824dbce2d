/**
 * Snapshots of a real temp workspace: taken, compared, and moved back and forth, with
 * files, modes, links and directories byte-equal afterwards.
 */
import { assertEquals } from "@std/assert";
import { Snapshots } from "../../src/undo/snapshots.ts";
import { treeState } from "../support/tree_state.ts";

/** Runs `test` with a workspace and a state directory in a fresh temp directory. */
async function withWorkspace(
  test: (ws: string, snapshots: (options?: { sizeCap?: number }) => Snapshots) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "powercode-snapshots-" });
  try {
    const ws = `${dir}/workspace`;
    await Deno.mkdir(ws);
    await test(ws, (options = {}) =>
      new Snapshots({
        dir: `${dir}/state`,
        roots: [ws],
        symlink: async (root, path, target) => {
          await Deno.remove(`${root}/${path}`).catch(() => {});
          await Deno.symlink(target, `${root}/${path}`);
        },
        isIgnored: (_root, path) => path === "ignored.log",
        ...options,
      }));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Files, a mode, a link and a nested directory: what a project holds before a task. */
async function seed(ws: string): Promise<void> {
  await Deno.writeTextFile(`${ws}/a.txt`, "alpha\n");
  await Deno.writeTextFile(`${ws}/c.txt`, "gamma\n");
  await Deno.mkdir(`${ws}/bin`);
  await Deno.writeTextFile(`${ws}/bin/run.sh`, "#!/bin/sh\necho hi\n");
  await Deno.chmod(`${ws}/bin/run.sh`, 0o755);
  await Deno.symlink("a.txt", `${ws}/link`);
  await Deno.mkdir(`${ws}/docs/old`, { recursive: true });
  await Deno.writeTextFile(`${ws}/docs/old/notes.md`, "notes\n");
}

/** What a task might do with bash and the file tools. */
async function change(ws: string): Promise<void> {
  await Deno.writeTextFile(`${ws}/a.txt`, "ALPHA\n");
  await Deno.remove(`${ws}/c.txt`);
  await Deno.writeTextFile(`${ws}/b.txt`, "beta\n");
  await Deno.chmod(`${ws}/bin/run.sh`, 0o644);
  await Deno.remove(`${ws}/link`);
  await Deno.symlink("b.txt", `${ws}/link`);
  await Deno.remove(`${ws}/docs`, { recursive: true });
  await Deno.mkdir(`${ws}/new/deep`, { recursive: true });
  await Deno.writeTextFile(`${ws}/new/deep/x.ts`, "export {};\n");
}

Deno.test("Snapshots.move() puts a changed tree back byte for byte, and forth again", async () => {
  await withWorkspace(async (ws, open) => {
    await seed(ws);
    const snapshots = open();
    const before = await snapshots.take();
    const original = await treeState(ws);
    await change(ws);
    const after = await snapshots.take();
    const changed = await treeState(ws);
    const back = await snapshots.move(after, before, { force: false });
    assertEquals(await treeState(ws), original);
    assertEquals(back.type === "moved" && back.restored.sort(), [
      "a.txt",
      "bin/run.sh",
      "c.txt",
      "docs/old/notes.md",
      "link",
    ]);
    assertEquals(back.type === "moved" && back.removed.sort(), ["b.txt", "new/deep/x.ts"]);
    if (back.type !== "moved") throw new Error("expected a move");
    await snapshots.move(back.to, back.from, { force: false });
    assertEquals(await treeState(ws), changed);
  });
});

Deno.test("Snapshots.changes() lists the paths whose content differs, not their stat", async () => {
  await withWorkspace(async (ws, open) => {
    await seed(ws);
    const snapshots = open();
    const before = await snapshots.take();
    await Deno.utime(`${ws}/a.txt`, new Date(0), new Date(0));
    await Deno.writeTextFile(`${ws}/c.txt`, "GAMMA\n");
    const after = await snapshots.take();
    assertEquals(snapshots.changes(before, after).map((change) => change.path), ["c.txt"]);
  });
});

Deno.test("Snapshots.move() refuses to overwrite a path changed since, unless forced", async () => {
  await withWorkspace(async (ws, open) => {
    await seed(ws);
    const snapshots = open();
    const before = await snapshots.take();
    await change(ws);
    const after = await snapshots.take();
    await Deno.writeTextFile(`${ws}/a.txt`, "edited by hand\n");
    await Deno.writeTextFile(`${ws}/untouched.txt`, "mine\n");
    assertEquals(await snapshots.move(after, before, { force: false }), {
      type: "conflict",
      paths: ["a.txt"],
    });
    assertEquals(await Deno.readTextFile(`${ws}/a.txt`), "edited by hand\n");
    const forced = await snapshots.move(after, before, { force: true });
    assertEquals(await Deno.readTextFile(`${ws}/a.txt`), "alpha\n");
    assertEquals(await Deno.readTextFile(`${ws}/untouched.txt`), "mine\n", "not the task's");
    if (forced.type !== "moved") throw new Error("expected a move");
    await snapshots.move(forced.to, forced.from, { force: false });
    assertEquals(await Deno.readTextFile(`${ws}/a.txt`), "edited by hand\n");
  });
});

Deno.test("Snapshots: files over the size cap are not restorable, but removable", async () => {
  await withWorkspace(async (ws, open) => {
    await Deno.writeTextFile(`${ws}/big.bin`, "x".repeat(100));
    const snapshots = open({ sizeCap: 50 });
    const before = await snapshots.take();
    await Deno.writeTextFile(`${ws}/big.bin`, "y".repeat(100));
    await Deno.writeTextFile(`${ws}/huge.bin`, "z".repeat(100));
    const after = await snapshots.take();
    const back = await snapshots.move(after, before, { force: false });
    assertEquals(back.type === "moved" && [back.notRestorable, back.removed], [
      ["big.bin"],
      ["huge.bin"],
    ]);
    assertEquals(await Deno.readTextFile(`${ws}/big.bin`), "y".repeat(100));
  });
});

Deno.test("Snapshots leave .git and ignored paths alone", async () => {
  await withWorkspace(async (ws, open) => {
    await Deno.mkdir(`${ws}/.git`);
    await Deno.writeTextFile(`${ws}/.git/HEAD`, "ref: refs/heads/main\n");
    const snapshots = open();
    const before = await snapshots.take();
    await Deno.writeTextFile(`${ws}/.git/HEAD`, "ref: refs/heads/other\n");
    await Deno.writeTextFile(`${ws}/ignored.log`, "log\n");
    await Deno.writeTextFile(`${ws}/kept.txt`, "new\n");
    const after = await snapshots.take();
    assertEquals(snapshots.changes(before, after).map((change) => change.path), ["kept.txt"]);
    await snapshots.move(after, before, { force: false });
    assertEquals(await treeState(ws), {
      ".git": { kind: "dir", mode: (await Deno.stat(`${ws}/.git`)).mode! & 0o7777 },
      ".git/HEAD": {
        kind: "file",
        mode: (await Deno.stat(`${ws}/.git/HEAD`)).mode! & 0o7777,
        text: "ref: refs/heads/other\n",
      },
      "ignored.log": {
        kind: "file",
        mode: (await Deno.stat(`${ws}/ignored.log`)).mode! & 0o7777,
        text: "log\n",
      },
    });
  });
});

Deno.test("Snapshots: an unchanged tree adds no object but the small snapshot record", async () => {
  await withWorkspace(async (ws, open) => {
    await seed(ws);
    const snapshots = open();
    await snapshots.take();
    const count = async () =>
      Object.values(await treeState(`${ws}/../state/objects`)).filter((each) =>
        each.kind === "file"
      ).length;
    const objects = await count();
    await snapshots.take();
    assertEquals(await count(), objects + 1);
  });
});

Deno.test("Snapshots: a file rewritten within the same second, same size and mtime, is read again", async () => {
  await withWorkspace(async (ws, open) => {
    await Deno.writeTextFile(`${ws}/a.txt`, "one\n");
    const snapshots = open();
    const first = await snapshots.take();
    const { mtime } = await Deno.lstat(`${ws}/a.txt`);
    await Deno.writeTextFile(`${ws}/a.txt`, "two\n");
    await Deno.utime(`${ws}/a.txt`, mtime!, mtime!);
    const second = await snapshots.take();
    assertEquals(snapshots.changes(first, second).map((change) => change.path), ["a.txt"]);
  });
});

Deno.test("Snapshots.move() reports a link it cannot make, leaves it, and restores the rest", async () => {
  await withWorkspace(async (ws) => {
    const dir = `${ws}/..`;
    await seed(ws);
    const snapshots = new Snapshots({
      dir: `${dir}/state`,
      roots: [ws],
      symlink: () => Promise.reject(new Error("Read-only file system")),
    });
    const before = await snapshots.take();
    await change(ws);
    const after = await snapshots.take();
    const back = await snapshots.move(after, before, { force: false });
    assertEquals(back.type === "moved" && back.notRestorable, ["link"]);
    assertEquals(await Deno.readTextFile(`${ws}/c.txt`), "gamma\n");
    assertEquals(await Deno.readLink(`${ws}/link`), "b.txt", "the task's link is left");
  });
});
