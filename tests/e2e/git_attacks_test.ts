import { assertEquals, assertStringIncludes } from "@std/assert";
import { createBashTool } from "../../src/tools/bash.ts";
import { Sandbox } from "../../src/sandbox/sandbox.ts";
import {
  createSandboxProject,
  isRoot,
  type Outcome,
  type SandboxProject,
} from "../support/sandbox_project.ts";

/**
 * Each attack of issue 18 item 1: a sandboxed command plants something that makes the user's
 * next git command, outside the sandbox, run `touch PWNED`. Every attack is run once without
 * the guard (it must work, or the test proves nothing) and then guarded, as root and as nobody.
 */

const AS_ROOT = await isRoot();
const NOBODY = 65534;
/** Who runs the command: `unguarded` is root (or the user) with writable git control. */
type Runner = "unguarded" | "root" | "nobody";
const RUNNERS: Runner[] = AS_ROOT ? ["unguarded", "root", "nobody"] : ["unguarded", "root"];
const IDENTITY = "export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a " +
  "GIT_COMMITTER_EMAIL=a@b; ";

interface Attack {
  name: string;
  /** Makes the project's repositories, as the user had them. */
  setup(project: SandboxProject): Promise<void>;
  /** What the model runs; `pwned` is the command git must never run. */
  command(pwned: string): string;
  /** Where the user runs `git status` afterwards (workspace-relative). */
  userRuns: string[];
}

const ATTACKS: Attack[] = [
  {
    name: "a planted .git/commondir",
    setup: (project) => repository(project.root),
    command: (pwned) =>
      "mkdir evil && cp -r .git/objects .git/refs evil/ && " +
      `git config -f evil/config core.fsmonitor '${pwned}'; echo ../evil > .git/commondir`,
    userRuns: ["."],
  },
  {
    name: "git init sub with core.fsmonitor, registered as a gitlink",
    setup: (project) => repository(project.root),
    command: (pwned) =>
      `${IDENTITY}git init -q sub && git -C sub commit -q --allow-empty -m x && ` +
      `git -C sub config core.fsmonitor '${pwned}'; ` +
      "git update-index --add --cacheinfo 160000,$(git -C sub rev-parse HEAD),sub",
    userRuns: [".", "sub"],
  },
  {
    name: "a submodule's .git/modules/lib/config",
    setup: async (project) => {
      await repository(`${project.dir}/lib`);
      await repository(project.root);
      await git(project.root, "-c", "protocol.file.allow=always", "submodule", "add", "../lib");
      await git(project.root, "commit", "-qm", "lib");
    },
    command: (pwned) => `git config -f .git/modules/lib/config core.fsmonitor '${pwned}'`,
    userRuns: [".", "lib"],
  },
  {
    name: "the repository a .git file (gitdir link) points at",
    setup: async (project) => {
      await git(project.root, "init", "-q", "-b", "main", "--separate-git-dir=.repo");
      await Deno.writeTextFile(`${project.root}/a.txt`, "a\n");
      await git(project.root, "add", "a.txt");
      await git(project.root, "commit", "-qm", "a");
    },
    command: (pwned) => `git config -f .repo/config core.fsmonitor '${pwned}'`,
    userRuns: ["."],
  },
  {
    name: "a .git symbolic link, followed or replaced",
    setup: async (project) => {
      await repository(project.root);
      await Deno.rename(`${project.root}/.git`, `${project.root}/real`);
      await Deno.symlink("real", `${project.root}/.git`);
    },
    command: (pwned) =>
      `git config -f real/config core.fsmonitor '${pwned}'; mkdir evil && cp -r real/. evil/ && ` +
      `git config -f evil/config core.fsmonitor '${pwned}' && ln -sfn evil .git`,
    userRuns: ["."],
  },
  {
    name: "a bare repository planted in the tree, with a worktree",
    setup: (project) => repository(project.root),
    command: (pwned) =>
      "git init -q --bare evil.git && cd evil.git && git config core.bare false && " +
      `git config core.worktree .. && git config core.fsmonitor '${pwned}'`,
    userRuns: ["evil.git"],
  },
];

for (const attack of ATTACKS) {
  Deno.test(`Sandbox.run() stops ${attack.name}, as root and as nobody`, async () => {
    for (const runner of RUNNERS) {
      await using project = await createSandboxProject();
      await attack.setup(project);
      await own(project.root, runner);
      const pwned = `${project.dir}/PWNED`;
      await run(project, runner, attack.command(`touch ${pwned}`));
      for (const dir of attack.userRuns) await git(`${project.root}/${dir}`, "status");
      const ran = await Deno.stat(pwned).then(() => true, () => false);
      assertEquals(ran, runner === "unguarded", `${runner}: git ran the planted command: ${ran}`);
    }
  });
}

Deno.test("Sandbox.run() lets commands read a repository: status, diff and log; commit fails", async () => {
  for (const runner of RUNNERS.filter((name) => name !== "unguarded")) {
    await using project = await createSandboxProject();
    await repository(project.root);
    await Deno.writeTextFile(`${project.root}/a.txt`, "a\nb\n");
    await own(project.root, runner);
    const { output, code } = await run(
      project,
      runner,
      `${IDENTITY}git status --short; git diff --stat; git log --format=%s; git commit -qam b`,
    );
    assertEquals(output.split("\n").slice(0, 4), [
      " M a.txt",
      " a.txt | 1 +",
      " 1 file changed, 1 insertion(+)",
      "first",
    ]);
    assertStringIncludes(output, "index.lock': Read-only file system");
    assertEquals(code, 128);
  }
});

Deno.test("bash renames the repositories a command made and tells the model; moved ones stay", async () => {
  await using project = await createSandboxProject();
  await repository(`${project.root}/old`);
  await own(project.root, "root");
  const bash = createBashTool(new Sandbox(project.root, "bwrap"));
  const command = "git init -q sub && mkdir d && git init -q --bare d/r && mkdir x && mv old x/";
  const result = await bash.execute({ command }, { signal: new AbortController().signal });
  assertEquals(
    result.content,
    [
      "(no output)",
      "",
      "powercode changed what this command made that git would take as a repository: git runs " +
      "a repository's hooks and config outside the sandbox. Ask the user to create repositories.",
      'Renamed "sub/.git/HEAD" to "sub/.git/HEAD.refused"',
      'Renamed "sub/.git" to "sub/.git.refused"',
      'Renamed "d/r/HEAD" to "d/r/HEAD.refused"',
      "exit code 0",
    ].join("\n"),
  );
  assertEquals(await names(`${project.root}/sub`), [".git.refused"]);
  assertEquals((await names(`${project.root}/d/r`)).includes("HEAD.refused"), true);
  assertEquals(await names(`${project.root}/x/old`), [".git", "a.txt"]);
});

Deno.test("Sandbox.run() guards every root: a further root's repository is read-only too", async () => {
  await using project = await createSandboxProject();
  const lib = `${project.dir}/lib`;
  await repository(lib);
  await own(project.root, "root");
  const command = `git config -f ${lib}/.git/config core.fsmonitor evil; git init -q ${lib}/sub`;
  const { output } = await project.run(command, { moreRoots: [lib] });
  assertStringIncludes(output, "lib/.git/config: Read-only file system");
  assertEquals(await names(`${lib}/sub`), [".git.refused"]);
  assertEquals((await Deno.readTextFile(`${lib}/.git/config`)).includes("evil"), false);
});

Deno.test("Sandbox.run() checks a directory a command made unreadable, as nobody", async () => {
  if (!AS_ROOT) return;
  await using project = await createSandboxProject();
  await own(project.root, "nobody");
  await project.runInChild("mkdir d && git init -q d/sub && chmod 000 d", { asNobody: true });
  assertEquals(await names(`${project.root}/d/sub`), [".git.refused"]);
});

async function names(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((entry) => entry.name).sort();
}

/** Runs `command` in the workspace as `runner`. */
async function run(project: SandboxProject, runner: Runner, command: string): Promise<Outcome> {
  if (runner === "nobody") return await project.runInChild(command, { asNobody: true });
  return await project.run(command, runner === "unguarded" ? { gitControl: "writable" } : {});
}

/** Gives the workspace to whoever runs the command (root cannot write nobody's files). */
async function own(root: string, runner: Runner): Promise<void> {
  if (!AS_ROOT) return;
  const owner = runner === "nobody" ? `${NOBODY}:${NOBODY}` : "0:0";
  const { success } = await new Deno.Command("chown", { args: ["-R", owner, root] }).output();
  assertEquals(success, true);
}

/** A repository at `dir` with one commit of `a.txt`. */
async function repository(dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  await git(dir, "init", "-q", "-b", "main");
  await Deno.writeTextFile(`${dir}/a.txt`, "a\n");
  await git(dir, "add", "a.txt");
  await git(dir, "commit", "-qm", "first");
}

/** The user's git, outside the sandbox; its exit status does not matter. */
async function git(dir: string, ...args: string[]): Promise<void> {
  await new Deno.Command("git", {
    args: ["-c", "safe.directory=*", ...args],
    cwd: dir,
    env: {
      GIT_AUTHOR_NAME: "a",
      GIT_AUTHOR_EMAIL: "a@b",
      GIT_COMMITTER_NAME: "a",
      GIT_COMMITTER_EMAIL: "a@b",
    },
    stdout: "null",
    stderr: "null",
  }).output();
}
