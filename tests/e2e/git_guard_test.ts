import { assertEquals, assertStringIncludes } from "@std/assert";
import { createBashTool } from "../../src/tools/bash.ts";
import { Sandbox, type SandboxOptions } from "../../src/sandbox/sandbox.ts";
import { createSandboxProject, type SandboxProject } from "../support/sandbox_project.ts";

const HOOK = "#!/bin/sh\necho pwned\n";
/** What a model would do to run code outside the sandbox the next time the user runs git. */
const PLANT = [
  `printf '${HOOK.replaceAll("\n", "\\n")}' > .git/hooks/pre-commit`,
  "chmod +x .git/hooks/pre-commit",
  "printf '[core]\\n\\thooksPath = evil\\n' >> .git/config",
  "mv .git/hooks .git/hooks.old",
  "mv .git .git.old",
].join("; ");

async function tree(path: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(path)) {
    names.push(entry.name);
    if (entry.isDirectory) {
      names.push(...(await tree(`${path}/${entry.name}`)).map((n) => `${entry.name}/${n}`));
    }
  }
  return names.sort();
}

/** A `.git` as `git init` leaves it, in the essentials. */
async function fakeRepository(project: SandboxProject): Promise<void> {
  await Deno.mkdir(`${project.root}/.git/hooks`, { recursive: true });
  await Deno.mkdir(`${project.root}/.git/objects`);
  await Deno.writeTextFile(`${project.root}/.git/config`, "[core]\n\tbare = false\n");
  await Deno.writeTextFile(`${project.root}/.git/HEAD`, "ref: refs/heads/main\n");
}

Deno.test("Sandbox.run() keeps the whole .git read-only: hooks, config, objects, commondir", async () => {
  await using project = await createSandboxProject();
  await fakeRepository(project);
  const { output } = await project.run(
    `${PLANT}; echo new > .git/objects/x && echo WROTE; echo .. > .git/commondir && echo WROTE`,
  );
  assertEquals(output.includes("WROTE"), false, output);
  assertEquals(await tree(`${project.root}/.git`), ["HEAD", "config", "hooks", "objects"]);
  assertEquals(await Deno.readTextFile(`${project.root}/.git/config`), "[core]\n\tbare = false\n");
});

Deno.test("Sandbox.run() lets no command create .git, and leaves no placeholder", async () => {
  await using project = await createSandboxProject();
  const command = "mkdir -p .git/hooks; echo '#!/bin/sh' > .git/hooks/pre-commit; " +
    "echo '[core]' > .git/config; ls -A .git | wc -l";
  assertEquals((await project.run(command)).output.split("\n").at(-2), "0");
  assertEquals(await tree(project.root), []);
});

Deno.test("Sandbox.run() protects missing hooks/ and config in an existing .git", async () => {
  await using project = await createSandboxProject();
  await Deno.mkdir(`${project.root}/.git/objects`, { recursive: true });
  await project.run(`mkdir -p .git/hooks; ${PLANT}`);
  assertEquals(await tree(`${project.root}/.git`), ["objects"]);
});

Deno.test("Sandbox.run() keeps a .git file (a worktree's gitdir pointer) read-only", async () => {
  await using project = await createSandboxProject();
  await Deno.writeTextFile(`${project.root}/.git`, "gitdir: /elsewhere/.git\n");
  await project.run("echo 'gitdir: evil' > .git; mv .git g; rm -f .git");
  assertEquals(await Deno.readTextFile(`${project.root}/.git`), "gitdir: /elsewhere/.git\n");
  assertEquals(await tree(project.root), [".git"]);
});

Deno.test("Sandbox.run() with writable git control lets commands write hooks and config", async () => {
  await using project = await createSandboxProject();
  await fakeRepository(project);
  const command = `printf '${HOOK.replaceAll("\n", "\\n")}' > .git/hooks/pre-commit; ` +
    "echo '# more' >> .git/config";
  assertEquals(await project.run(command, { gitControl: "writable" }), { output: "", code: 0 });
  assertEquals(await Deno.readTextFile(`${project.root}/.git/hooks/pre-commit`), HOOK);
  assertEquals(
    await Deno.readTextFile(`${project.root}/.git/config`),
    "[core]\n\tbare = false\n# more\n",
  );
});

Deno.test("createBashTool() tells the model that git's directories are read-only", () => {
  const note = "Every .git and git directory is read-only (git status, diff and log work; " +
    "commit fails) and repositories a command makes are renamed after it; ask the user to commit.";
  const describe = (options: SandboxOptions) =>
    createBashTool(new Sandbox("/ws", "bwrap", options)).description;
  assertStringIncludes(describe({}), note);
  assertEquals(describe({ gitControl: "writable" }).includes(".git"), false);
});
