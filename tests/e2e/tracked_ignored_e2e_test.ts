/**
 * Issue 35 item 4: a file git tracks stays readable through git's objects whatever
 * `.powercodeignore` says; powercode reads git's index itself (never running git) and says
 * so at the start, naming the files.
 */
import { assertEquals, assertStringIncludes } from "@std/assert";
import { indexPaths } from "../../src/workspace/mod.ts";
import { skipWithout } from "../support/programs.ts";
import { createTempProject } from "../support/project.ts";
import { text } from "../support/scripts.ts";
import { ENV, provider, startScriptedServer } from "../support/sessions.ts";

const NO_GIT = skipWithout("git");

async function git(dir: string, ...args: string[]): Promise<void> {
  const { success, stderr } = await new Deno.Command("git", {
    args: ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", ...args],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!success) throw new Error(new TextDecoder().decode(stderr));
}

Deno.test({
  name:
    "a tracked file .powercodeignore ignores is named at the start: git's objects still hold it",
  ignore: NO_GIT,
  async fn() {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    const ws = project.workspace;
    await Deno.writeTextFile(`${ws}/.env`, "TOKEN=secret\n");
    await Deno.mkdir(`${ws}/config`);
    await Deno.writeTextFile(`${ws}/config/keys.txt`, "k\n");
    await Deno.writeTextFile(`${ws}/main.ts`, "console.log(1);\n");
    await git(ws, "init", "-q");
    await git(ws, "add", ".");
    await git(ws, "commit", "-q", "-m", "init");
    await Deno.writeTextFile(`${ws}/.powercodeignore`, ".env\nconfig/\n");
    scripted.play([text("Hi.")]);
    const result = await project.run(["-p", "hi"], { env: ENV });
    assertEquals(result.code, 0, result.stderr);
    assertStringIncludes(
      result.stderr,
      "⚠ .powercodeignore ignores 2 files git tracks (.env, config/keys.txt): commands can " +
        "still read them from git's objects",
    );
  },
});

Deno.test({
  name: "indexPaths() reads the paths of git index versions 2, 3 and 4",
  ignore: NO_GIT,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      for (const name of ["a.txt", "dir/b.txt", "dir/c d.txt", "e", "new.txt"]) {
        await Deno.mkdir(`${dir}/${name}`.replace(/\/[^/]*$/, ""), { recursive: true });
        await Deno.writeTextFile(`${dir}/${name}`, name);
      }
      await git(dir, "init", "-q");
      // An intent-to-add entry carries the extended flags: version 3 is kept for it.
      await git(dir, "add", "-N", "new.txt");
      for (const version of ["2", "3", "4"]) {
        await git(dir, "-c", `index.version=${version}`, "add", ".");
        await git(dir, "update-index", "--index-version", version);
        const bytes = await Deno.readFile(`${dir}/.git/index`);
        // git writes version 3 only when an entry needs the extended flags (say, git add -N).
        const written = new DataView(bytes.buffer).getUint32(4);
        assertEquals(
          version === "3" ? [2, 3].includes(written) : written === 4 || written === 2,
          true,
        );
        assertEquals(indexPaths(bytes), ["a.txt", "dir/b.txt", "dir/c d.txt", "e", "new.txt"]);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
