import { assertEquals, assertRejects } from "@std/assert";
import { MAX_EDIT_BYTES, Workspace } from "../../src/workspace/workspace.ts";
import { makeFifo } from "../support/special_files.ts";

type ErrorClass = new (message?: string) => Error;

/** A temp dir holding `ws/` (the workspace) and `outside/` with `secret.txt`. */
async function withWorkspace(
  fn: (workspace: Workspace, parent: string) => Promise<void> | void,
): Promise<void> {
  const parent = await Deno.realPath(await Deno.makeTempDir({ prefix: "powercode_paths_" }));
  try {
    await Deno.mkdir(`${parent}/ws/sub`, { recursive: true });
    await Deno.mkdir(`${parent}/outside`);
    await Deno.writeTextFile(`${parent}/outside/secret.txt`, "secret\n");
    await fn(await Workspace.open(`${parent}/ws`), parent);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
}

async function assertEscapes(workspace: Workspace, path: string): Promise<void> {
  await assertRejects(
    () => workspace.resolve(path),
    Deno.errors.PermissionDenied,
    `Cannot access "${path}": path escapes the workspace`,
  );
}

Deno.test("Workspace.open() resolves the root to its real path", async () => {
  await withWorkspace(async (_, parent) => {
    await Deno.symlink(`${parent}/ws`, `${parent}/alias`);
    const workspace = await Workspace.open(`${parent}/alias`);
    assertEquals(workspace.root, `${parent}/ws`);
  });
});

Deno.test("Workspace.open() refuses a missing directory and a file", async () => {
  await withWorkspace(async (_, parent) => {
    await assertRejects(
      () => Workspace.open(`${parent}/nope`),
      Deno.errors.NotFound,
      `Cannot open workspace "${parent}/nope": directory does not exist; create it first`,
    );
    await assertRejects(
      () => Workspace.open(`${parent}/outside/secret.txt`),
      TypeError,
      `Cannot open workspace "${parent}/outside/secret.txt": not a directory`,
    );
  });
});

Deno.test("Workspace.resolve() maps relative and inside absolute paths", async () => {
  await withWorkspace(async (workspace) => {
    const root = workspace.root;
    assertEquals(await workspace.resolve("a.txt"), `${root}/a.txt`);
    assertEquals(await workspace.resolve("./sub/../sub/new/deep.txt"), `${root}/sub/new/deep.txt`);
    assertEquals(await workspace.resolve("."), root);
    assertEquals(await workspace.resolve("sub/"), `${root}/sub`);
    assertEquals(await workspace.resolve(`${root}/sub/x`), `${root}/sub/x`);
    assertEquals(await workspace.resolve(root), root);
  });
});

Deno.test("Workspace.resolve() refuses .. escapes", async () => {
  await withWorkspace(async (workspace) => {
    await assertEscapes(workspace, "..");
    await assertEscapes(workspace, "../outside/secret.txt");
    await assertEscapes(workspace, "sub/../../outside/secret.txt");
    await assertEscapes(workspace, `${workspace.root}/../outside/secret.txt`);
  });
});

Deno.test("Workspace.resolve() refuses absolute paths outside", async () => {
  await withWorkspace(async (workspace, parent) => {
    await assertEscapes(workspace, "/etc/passwd");
    await assertEscapes(workspace, `${parent}/outside/secret.txt`);
    await assertEscapes(workspace, `${workspace.root}-other/x`);
  });
});

Deno.test("Workspace.resolve() refuses a symlinked file pointing outside", async () => {
  await withWorkspace(async (workspace, parent) => {
    await Deno.symlink(`${parent}/outside/secret.txt`, `${workspace.root}/secret.txt`);
    await Deno.symlink("../../outside/secret.txt", `${workspace.root}/sub/relative.txt`);
    await assertEscapes(workspace, "secret.txt");
    await assertEscapes(workspace, "sub/relative.txt");
  });
});

Deno.test("Workspace.resolve() refuses a symlinked directory pointing outside", async () => {
  await withWorkspace(async (workspace, parent) => {
    await Deno.symlink(`${parent}/outside`, `${workspace.root}/out`);
    await assertEscapes(workspace, "out");
    await assertEscapes(workspace, "out/secret.txt");
    await assertEscapes(workspace, "out/new/file.txt");
    await Deno.symlink("/", `${workspace.root}/sub/slash`);
    await assertEscapes(workspace, "sub/slash/etc/passwd");
  });
});

Deno.test("Workspace.resolve() refuses dangling symlinks", async () => {
  await withWorkspace(async (workspace, parent) => {
    await Deno.symlink(`${parent}/outside/missing.txt`, `${workspace.root}/dangling`);
    await Deno.symlink(`${parent}/missing-dir`, `${workspace.root}/sub/gone`);
    await assertRejects(
      () => workspace.resolve("dangling"),
      Deno.errors.NotFound,
      `Cannot access "dangling": "dangling" is a dangling symbolic link`,
    );
    await assertRejects(
      () => workspace.resolve("sub/gone/new.txt"),
      Deno.errors.NotFound,
      `Cannot access "sub/gone/new.txt": "sub/gone" is a dangling symbolic link`,
    );
  });
});

Deno.test("Workspace.resolve() follows symlinks that stay inside", async () => {
  await withWorkspace(async (workspace) => {
    const root = workspace.root;
    await Deno.writeTextFile(`${root}/sub/real.txt`, "x");
    await Deno.symlink("sub/real.txt", `${root}/link.txt`);
    await Deno.symlink("sub", `${root}/dir`);
    assertEquals(await workspace.resolve("link.txt"), `${root}/sub/real.txt`);
    assertEquals(await workspace.resolve("dir/new/x.txt"), `${root}/sub/new/x.txt`);
  });
});

Deno.test("Workspace.resolve() refuses empty paths and NUL bytes", async () => {
  await withWorkspace(async (workspace) => {
    await assertRejects(
      () => workspace.resolve(""),
      TypeError,
      `Cannot access "": the path is empty`,
    );
    await assertRejects(
      () => workspace.resolve("a\0b"),
      TypeError,
      `Cannot access "a\\u0000b": the path contains a NUL byte`,
    );
  });
});

Deno.test("Workspace.relative() gives paths for messages", async () => {
  await withWorkspace((workspace) => {
    assertEquals(workspace.relative(workspace.root), ".");
    assertEquals(workspace.relative(`${workspace.root}/sub/a.txt`), "sub/a.txt");
    assertEquals(workspace.relative("/etc/passwd"), "/etc/passwd");
  });
});

Deno.test("Workspace works with read permission on the workspace only", async () => {
  await withWorkspace(async (workspace, parent) => {
    await Deno.symlink(`${parent}/outside`, `${workspace.root}/out`);
    const script = `${parent}/check.ts`;
    const module = new URL("../../src/workspace/workspace.ts", import.meta.url).href;
    await Deno.writeTextFile(
      script,
      `import { Workspace } from "${module}";
const workspace = await Workspace.open(Deno.args[0]);
const results = [await workspace.resolve("sub/new.txt")];
for (const path of ["out/secret.txt", "../outside"]) {
  await workspace.resolve(path).catch((error) => results.push(error.message));
}
console.log(JSON.stringify(results));`,
    );
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", `--allow-read=${workspace.root}`, script, workspace.root],
      cwd: "/",
    }).output();
    assertEquals(new TextDecoder().decode(stderr), "");
    assertEquals(code, 0);
    assertEquals(JSON.parse(new TextDecoder().decode(stdout)), [
      `${workspace.root}/sub/new.txt`,
      `Cannot access "out/secret.txt": path escapes the workspace`,
      `Cannot access "../outside": path escapes the workspace`,
    ]);
  });
});

Deno.test("Workspace.resolve() through a symlinked workspace gives paths under the link", async () => {
  await withWorkspace(async (_, parent) => {
    await Deno.symlink(`${parent}/ws`, `${parent}/alias`);
    const workspace = await Workspace.open(`${parent}/alias`);
    await Deno.symlink(`${parent}/alias/sub`, `${parent}/ws/via-alias`);
    assertEquals(await workspace.resolve("a.txt"), `${parent}/alias/a.txt`);
    assertEquals(await workspace.resolve(`${parent}/ws/sub/x`), `${parent}/alias/sub/x`);
    assertEquals(await workspace.resolve(`${parent}/alias/sub/x`), `${parent}/alias/sub/x`);
    assertEquals(await workspace.resolve("via-alias/new.txt"), `${parent}/alias/sub/new.txt`);
    assertEquals(await workspace.resolve("."), `${parent}/alias`);
    await Deno.symlink(`${parent}/outside`, `${parent}/ws/out`);
    for (const path of ["..", "../outside/secret.txt", "out/secret.txt", `${parent}/outside`]) {
      await assertEscapes(workspace, path);
    }
  });
});

Deno.test("the file tools work in a symlinked workspace with permissions for the link only", async () => {
  await withWorkspace(async (_, parent) => {
    await Deno.symlink(`${parent}/ws`, `${parent}/project`);
    await Deno.symlink(`${parent}/outside`, `${parent}/ws/out`);
    const script = `${parent}/check.ts`;
    const tools = new URL("../../src/tools/", import.meta.url).href;
    await Deno.writeTextFile(
      script,
      `import { Workspace } from "${tools}../workspace/workspace.ts";
import { createReadFileTool } from "${tools}read_file.ts";
import { createWriteFileTool } from "${tools}write_file.ts";
const workspace = await Workspace.open("project");
const signal = new AbortController().signal;
const results = [
  (await createWriteFileTool(workspace).execute({ path: "sub/w.txt", content: "hi" }, { signal }))
    .content,
  (await createReadFileTool(workspace).execute({ path: "sub/w.txt" }, { signal })).content,
];
await createReadFileTool(workspace).execute({ path: "out/secret.txt" }, { signal })
  .catch((error) => results.push(error.message));
console.log(JSON.stringify(results));`,
    );
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "--allow-read=./project", "--allow-write=./project", script],
      cwd: parent,
    }).output();
    assertEquals(new TextDecoder().decode(stderr), "");
    assertEquals(code, 0);
    assertEquals(JSON.parse(new TextDecoder().decode(stdout)), [
      `Wrote 2 bytes to "sub/w.txt" (new file)`,
      "hi",
      `Cannot access "out/secret.txt": path escapes the workspace`,
    ]);
    assertEquals(await Deno.readTextFile(`${parent}/ws/sub/w.txt`), "hi");
  });
});

Deno.test("Workspace.resolveWrite() applies every write guard: size, escape, git control, special files", async () => {
  await withWorkspace(async (workspace, parent) => {
    const root = workspace.root;
    await Deno.mkdir(`${root}/.git/hooks`, { recursive: true });
    await Deno.writeTextFile(`${root}/a.txt`, "abc");
    await makeFifo(`${root}/pipe`);
    const refused = async (path: string, bytes: number, error: ErrorClass, message: string) =>
      await assertRejects(
        () => workspace.resolveWrite(path, { action: "write", bytes }),
        error,
        message,
      );
    await refused(
      "a.txt",
      MAX_EDIT_BYTES + 1,
      RangeError,
      'Cannot write "a.txt": the new content is 10.0 MB',
    );
    await refused(
      "../outside/secret.txt",
      1,
      Deno.errors.PermissionDenied,
      "path escapes the workspace",
    );
    await refused(".git/hooks/pre-commit", 1, Deno.errors.PermissionDenied, "--allow-git-writes");
    await refused("pipe", 1, TypeError, 'Cannot write "pipe": it is a FIFO (named pipe)');
    const target = await workspace.resolveWrite("a.txt", { action: "write", bytes: 3 });
    assertEquals([target.absolute, target.existing?.size], [`${parent}/ws/a.txt`, 3]);
    assertEquals(await workspace.resolveWrite("new/b.txt", { action: "write" }), {
      absolute: `${parent}/ws/new/b.txt`,
      existing: undefined,
    });
    const writable = await Workspace.open(root, { gitControl: "writable" });
    assertEquals(
      (await writable.resolveWrite(".git/hooks/pre-commit", { action: "write" })).absolute,
      `${root}/.git/hooks/pre-commit`,
    );
  });
});

Deno.test("Workspace with more roots resolves paths inside any of them, and nothing else", async () => {
  await withWorkspace(async (_, parent) => {
    await Deno.mkdir(`${parent}/lib/.git/hooks`, { recursive: true });
    await Deno.writeTextFile(`${parent}/lib/a.txt`, "a\n");
    await Deno.symlink(`${parent}/lib/a.txt`, `${parent}/ws/to-lib`);
    await Deno.symlink(`${parent}/outside/secret.txt`, `${parent}/lib/leak`);
    const workspace = await Workspace.open(`${parent}/ws`, { moreDirs: [`${parent}/lib`] });
    assertEquals(workspace.moreRoots, [`${parent}/lib`]);
    assertEquals(workspace.roots.map((root) => root.access), [`${parent}/ws`, `${parent}/lib`]);
    assertEquals(await workspace.resolve(`${parent}/lib/a.txt`), `${parent}/lib/a.txt`);
    assertEquals(await workspace.resolve("../lib/new/b.txt"), `${parent}/lib/new/b.txt`);
    assertEquals(await workspace.resolve("to-lib"), `${parent}/lib/a.txt`);
    for (const path of [`${parent}/lib/leak`, "../outside/secret.txt", parent, "../lib/.."]) {
      await assertEscapes(workspace, path);
    }
    await assertRejects(
      () => workspace.resolveWrite(`${parent}/lib/.git/hooks/pre-commit`, { action: "write" }),
      Deno.errors.PermissionDenied,
      "--allow-git-writes",
    );
    await assertRejects(
      () => Workspace.open(`${parent}/ws`, { moreDirs: [`${parent}/nope`] }),
      Deno.errors.NotFound,
      `Cannot open workspace "${parent}/nope": directory does not exist`,
    );
  });
});

Deno.test("Workspace.resolve() refuses what .powercodeignore ignores, by name and by real path", async () => {
  await withWorkspace(async (_, parent) => {
    const root = `${parent}/ws`;
    await Deno.writeTextFile(`${root}/.powercodeignore`, ".env\nsecrets/\n*.pem\n!public.pem\n");
    await Deno.mkdir(`${root}/secrets`);
    await Deno.writeTextFile(`${root}/.env`, "KEY=1\n");
    await Deno.symlink(`${root}/.env`, `${root}/env-link`);
    await Deno.symlink(`${root}/secrets`, `${root}/hidden`);
    const workspace = await Workspace.open(root);
    assertEquals(workspace.ignore.size, 4);
    const ignored = async (path: string, matched: string) =>
      await assertRejects(
        () => workspace.resolve(path),
        Deno.errors.PermissionDenied,
        `Cannot access "${path}": "${matched}" is ignored by .powercodeignore`,
      );
    await ignored(".env", ".env");
    await ignored("sub/.env", "sub/.env");
    await ignored(`${root}/.env`, ".env");
    await ignored("env-link", ".env");
    await ignored("secrets/new.txt", "secrets");
    await ignored("hidden/a.txt", "secrets");
    await ignored("hidden", "secrets");
    await ignored("key.pem", "key.pem");
    assertEquals(await workspace.resolve("public.pem"), `${root}/public.pem`);
    assertEquals(await workspace.resolve(".powercodeignore"), `${root}/.powercodeignore`);
    await assertRejects(
      () => workspace.resolveWrite(".powercodeignore", { action: "write" }),
      Deno.errors.PermissionDenied,
      'Cannot change ".powercodeignore": it decides what the tools may see, so only the user ' +
        "edits it",
    );
  });
});

Deno.test("Workspace.open() refuses a .powercodeignore that is not a regular file", async () => {
  await withWorkspace(async (_, parent) => {
    await Deno.symlink(`${parent}/outside/secret.txt`, `${parent}/ws/.powercodeignore`);
    await assertRejects(
      () => Workspace.open(`${parent}/ws`),
      TypeError,
      `Cannot read "${parent}/ws/.powercodeignore": it is not a regular file; make it one`,
    );
  });
});
