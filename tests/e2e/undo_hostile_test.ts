/**
 * Undo against a workspace that changes under it: a directory swapped for a symbolic link
 * during a restore or a scan (what a sandboxed MCP server, living across tasks, can do),
 * modes that must not come back (set-uid), and state files other users must not read.
 */
import { assert, assertEquals, assertRejects } from "@std/assert";
import { Snapshots } from "../../src/undo/snapshots.ts";

const NOBODY = 65534;
const CHILD = new URL("../support/undo_race_child.ts", import.meta.url);
const SRC = new URL("../../src/", import.meta.url);

async function withDir(test: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "powercode-undo-hostile-" });
  try {
    await test(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function names(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((entry) => entry.name).sort();
}

/** Every file below `dir`, recursively. */
function filesBelow(dir: string): string[] {
  return [...Deno.readDirSync(dir)].flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory ? filesBelow(path) : [path];
  });
}

Deno.test("Snapshots.move() writes nothing outside the root when a directory becomes a link mid-restore", async () => {
  await withDir(async (dir) => {
    const ws = `${dir}/ws`;
    const outside = `${dir}/outside`;
    await Deno.mkdir(`${ws}/sub`, { recursive: true });
    await Deno.mkdir(outside);
    let swap = false;
    const snapshots = new Snapshots({
      dir: `${dir}/state`,
      roots: [ws],
      // Links are made before the files beside them ("sub/alink" < "sub/x"): the attacker's
      // moment, after "sub" was checked.
      symlink: async (root, path, target) => {
        if (swap) {
          await Deno.rename(`${ws}/sub`, `${ws}/real`);
          await Deno.symlink(outside, `${ws}/sub`);
          return await Deno.symlink(target, `${ws}/real/alink`);
        }
        await Deno.symlink(target, `${root}/${path}`);
      },
    });
    await Deno.symlink("x", `${ws}/sub/alink`);
    await Deno.writeTextFile(`${ws}/sub/x`, "chosen by the attacker\n");
    const before = await snapshots.take();
    await Deno.remove(`${ws}/sub/alink`);
    await Deno.writeTextFile(`${ws}/sub/x`, "changed\n");
    const after = await snapshots.take();
    swap = true;
    await assertRejects(
      () => snapshots.move(after, before, { force: false }),
      Error,
      'Cannot restore "sub/x": "sub" is not a directory below the one before it',
    );
    assertEquals(names(outside), []);
    assertEquals(await Deno.readTextFile(`${ws}/real/x`), "changed\n");
  });
});

/**
 * Runs the race in a child (as `asNobody` or root): restores back and forth while a
 * process swaps the restored files' directory for a link again and again; returns what
 * appeared outside the root.
 */
async function race(dir: string, asNobody: boolean): Promise<{ outside: string[]; moves: number }> {
  const copy = `${dir}/child`;
  const cp = new Deno.Command("cp", { args: ["-R", SRC.pathname, `${copy}/src`] });
  await Deno.mkdir(copy);
  assert((await cp.output()).success);
  await Deno.copyFile(CHILD, `${copy}/run.ts`);
  await Deno.mkdir(`${dir}/work`);
  if (asNobody) {
    const chown = new Deno.Command("chown", { args: ["-R", `${NOBODY}:${NOBODY}`, dir] });
    assert((await chown.output()).success);
  }
  const user = asNobody
    ? ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "--"]
    : [];
  const deno = [Deno.execPath(), "run", "-A", "--no-config", "--no-lock", `${copy}/run.ts`];
  const [program, ...args] = [...user, ...deno, `${dir}/work`];
  const { code, stdout, stderr } = await new Deno.Command(program!, {
    args,
    clearEnv: true,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", DENO_DIR: `${copy}/deno_dir`, HOME: dir },
  }).output();
  const text = new TextDecoder().decode(stdout);
  assertEquals(code, 0, new TextDecoder().decode(stderr));
  return JSON.parse(text);
}

for (const asNobody of [false, true]) {
  const who = asNobody ? "an ordinary user" : "root";
  Deno.test(`Snapshots.move() as ${who} writes nothing outside the root while a directory is swapped for a link again and again`, async () => {
    await withDir(async (dir) => {
      const { outside, moves } = await race(dir, asNobody);
      assertEquals(outside, []);
      assert(moves > 0, "no restore was started");
    });
  });
}

Deno.test("Snapshots.take() reads nothing through a directory swapped for a link during the scan", async () => {
  await withDir(async (dir) => {
    const ws = `${dir}/ws`;
    const outside = `${dir}/outside`;
    await Deno.mkdir(`${ws}/sub`, { recursive: true });
    await Deno.mkdir(outside);
    await Deno.writeTextFile(`${ws}/sub/a.txt`, "public\n");
    await Deno.writeTextFile(`${outside}/a.txt`, "SECRET of another directory\n");
    let swapped = false;
    const snapshots = new Snapshots({
      dir: `${dir}/state`,
      roots: [ws],
      // Asked while "sub" is listed: after the walk entered it, before it reads "a.txt".
      isIgnored: (_root, path) => {
        if (path === "sub/a.txt" && !swapped) {
          swapped = true;
          Deno.renameSync(`${ws}/sub`, `${ws}/real`);
          Deno.symlinkSync(outside, `${ws}/sub`);
        }
        return false;
      },
    });
    await snapshots.take();
    assert(swapped);
    const stored = filesBelow(`${dir}/state/objects`).map((path) => Deno.readTextFileSync(path));
    assertEquals(stored.filter((text) => text.includes("SECRET")), []);
  });
});

Deno.test("Snapshots.move() never restores set-uid, set-gid or sticky bits", async () => {
  await withDir(async (dir) => {
    const ws = `${dir}/ws`;
    await Deno.mkdir(`${ws}/d`, { recursive: true });
    await Deno.writeTextFile(`${ws}/d/tool`, "#!/bin/sh\n");
    await Deno.chmod(`${ws}/d/tool`, 0o6755);
    await Deno.chmod(`${ws}/d`, 0o3775);
    const snapshots = new Snapshots({ dir: `${dir}/state`, roots: [ws] });
    const before = await snapshots.take();
    await Deno.remove(`${ws}/d`, { recursive: true });
    const after = await snapshots.take();
    const moved = await snapshots.move(after, before, { force: false });
    assertEquals(moved.type, "moved");
    const mode = (path: string) => (Deno.statSync(path).mode ?? 0) & 0o7777;
    assertEquals([mode(`${ws}/d`), mode(`${ws}/d/tool`)], [0o775, 0o755]);
  });
});

Deno.test("Snapshots keep their state private: 0700 directories, 0600 files, whatever the original's mode", async () => {
  await withDir(async (dir) => {
    const ws = `${dir}/ws`;
    await Deno.mkdir(ws);
    await Deno.writeTextFile(`${ws}/public.txt`, "anyone\n");
    await Deno.chmod(`${ws}/public.txt`, 0o644);
    await Deno.writeTextFile(`${ws}/private.txt`, "only me\n");
    await Deno.chmod(`${ws}/private.txt`, 0o600);
    await Deno.mkdir(`${dir}/state`, { mode: 0o755 });
    await new Snapshots({ dir: `${dir}/state`, roots: [ws] }).take();
    const modes = new Set<string>();
    const walk = (path: string) => {
      const info = Deno.lstatSync(path);
      modes.add(`${info.isDirectory ? "dir" : "file"} ${((info.mode ?? 0) & 0o777).toString(8)}`);
      if (info.isDirectory) {
        for (const entry of Deno.readDirSync(path)) walk(`${path}/${entry.name}`);
      }
    };
    walk(`${dir}/state`);
    assertEquals([...modes].sort(), ["dir 700", "file 600"]);
  });
});
