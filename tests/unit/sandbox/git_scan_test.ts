import { assertEquals } from "@std/assert";
import { type GitEntry, ScanCache, scanGit } from "../../../src/sandbox/git_scan.ts";
import { delay } from "../../../src/core/mod.ts";

/** What a test compares of an entry: everything but its identity. */
function shape(root: string, entries: GitEntry[]): string[] {
  return entries.map((entry) =>
    `${entry.path.slice(root.length) || "/"} ${entry.role} ${entry.kind}${
      entry.hasHead ? " HEAD" : ""
    }`
  );
}

async function makeTree(root: string, dirs: string[], files: string[]): Promise<void> {
  for (const dir of dirs) await Deno.mkdir(`${root}/${dir}`, { recursive: true });
  for (const file of files) await Deno.writeTextFile(`${root}/${file}`, "x\n");
}

Deno.test("scanGit() finds every .git and git directory, parents first, without looking inside", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  try {
    await makeTree(root, [
      ".git/objects",
      ".git/refs",
      ".git/modules/lib/objects",
      "a/b/sub/.git/refs",
      "a/b/sub/.git/objects",
      "bare.git/objects",
      "bare.git/refs",
      "half/objects",
      "wt",
      "lib",
      "src",
    ], ["lib/.git", "bare.git/HEAD", "wt/HEAD", "wt/commondir", "src/HEAD"]);
    await Deno.symlink("bare.git", `${root}/a/.git`);
    assertEquals(shape(root, scanGit(root).entries), [
      "/.git link directory",
      "/a/.git link symlink",
      "/a/b/sub/.git link directory",
      "/bare.git directory directory HEAD",
      "/lib/.git link file",
      "/wt directory directory HEAD",
    ]);
    assertEquals(shape(root, scanGit(root, { descend: () => true }).entries), [
      "/.git link directory",
      "/.git directory directory",
      "/a/.git link symlink",
      "/a/b/sub/.git link directory",
      "/a/b/sub/.git directory directory",
      "/bare.git directory directory HEAD",
      "/lib/.git link file",
      "/wt directory directory HEAD",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("scanGit() with a cache sees a repository made in a directory it kept", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  try {
    await makeTree(root, ["a/b/c", "d"], []);
    // Only directories unchanged for 3 s are kept.
    await delay(3100);
    const cache = new ScanCache();
    assertEquals(scanGit(root, { cache }).entries, []);
    assertEquals(scanGit(root, { cache }).entries, []);
    await makeTree(root, ["a/b/.git/objects", "a/b/.git/refs"], ["d/.git"]);
    assertEquals(shape(root, scanGit(root, { cache }).entries), [
      "/a/b/.git link directory",
      "/d/.git link file",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
