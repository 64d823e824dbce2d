import { assertEquals } from "@std/assert";
import { createSandboxProject } from "../support/sandbox_project.ts";
import { resolveHidden } from "../../src/sandbox/hidden_paths.ts";

Deno.test("Sandbox.run() masks a hidden file or directory inside the workspace too", async () => {
  await using project = await createSandboxProject();
  await Deno.writeTextFile(`${project.root}/provider.json`, "inside-secret\n");
  await Deno.mkdir(`${project.root}/.powercode`);
  await Deno.writeTextFile(`${project.root}/.powercode/history`, "inside-history\n");
  const hidden = [
    ...project.hidden,
    { path: `${project.root}/provider.json`, isDirectory: false },
    { path: `${project.root}/.powercode`, isDirectory: true },
  ];
  const command = "cat provider.json .powercode/history; ls -A .powercode; echo x > .powercode/x";
  const { output } = await project.run(command, { hidden });
  assertEquals(output.includes("inside-"), false, output);
  assertEquals(await Deno.stat(`${project.root}/.powercode/x`).catch(() => "absent"), "absent");
});

Deno.test("Sandbox.run() keeps a workspace visible inside a hidden directory, and the rest hidden", async () => {
  await using project = await createSandboxProject();
  await Deno.writeTextFile(`${project.root}/notes.txt`, "notes\n");
  const hidden = [{ path: project.dir, isDirectory: true }];
  const { output, code } = await project.run("cat notes.txt; ls -A ..", { hidden });
  assertEquals({ output, code }, { output: "notes\nws\n", code: 0 });
});

Deno.test("resolveHidden() finds the existing paths by their real path and kind", async () => {
  await using project = await createSandboxProject();
  await Deno.symlink(`${project.dir}/provider.json`, `${project.dir}/link.json`);
  const found = await resolveHidden([
    `${project.dir}/link.json`,
    `${project.dir}/missing.json`,
    `${project.dir}/.powercode`,
    `${project.dir}/provider.json`,
  ]);
  assertEquals(found, [
    { path: `${project.dir}/provider.json`, isDirectory: false },
    { path: `${project.dir}/.powercode`, isDirectory: true },
  ]);
});
