import { assertEquals, assertRejects } from "@std/assert";
import { Workspace } from "../../../src/workspace/workspace.ts";
import { createGrepTool } from "../../../src/tools/grep.ts";
import { createGlobTool } from "../../../src/tools/glob.ts";
import { createLsTool } from "../../../src/tools/ls.ts";

const signal = new AbortController().signal;

/** A workspace holding `files` (path → text or bytes), opened after they are written. */
async function withTree(
  files: Record<string, string | Uint8Array>,
  fn: (workspace: Workspace) => Promise<void>,
): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "powercode_search_" }));
  try {
    for (const [path, data] of Object.entries(files)) {
      const absolute = `${dir}/${path}`;
      await Deno.mkdir(absolute.slice(0, absolute.lastIndexOf("/")), { recursive: true });
      if (typeof data === "string") await Deno.writeTextFile(absolute, data);
      else await Deno.writeFile(absolute, data);
    }
    await fn(await Workspace.open(dir));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const TREE = {
  ".gitignore": "build/\n*.log\n!keep.log\n",
  ".powercodeignore": "secret.txt\n",
  ".git/config": "needle in git\n",
  "a.ts": "const needle = 1;\nconst other = 2;\n",
  "b.md": "no match here\n",
  "secret.txt": "needle secret\n",
  "build/out.js": "needle built\n",
  "app.log": "needle logged\n",
  "keep.log": "needle kept\n",
  "src/deep/c.ts": "one\ntwo\nNEEDLE three\nfour\nfive\nneedle six\n",
  "src/.gitignore": "gen.ts\n",
  "src/gen.ts": "needle generated\n",
  "image.bin": new Uint8Array([110, 101, 101, 100, 108, 101, 0, 1, 2]),
};

Deno.test("grep() lists matching lines in path order, skipping .git, ignored and binary files", async () => {
  await withTree(TREE, async (workspace) => {
    const grep = createGrepTool(workspace);
    assertEquals(await grep.execute({ pattern: "needle" }, { signal }), {
      content: "a.ts:1:const needle = 1;\nkeep.log:1:needle kept\nsrc/deep/c.ts:6:needle six\n" +
        "(3 matches in 3 files)\n(binary: 1 file skipped)",
      summary: "3 matches in 3 files",
    });
    const all = await grep.execute(
      { pattern: "needle", ignore_case: true, include_gitignored: true, include: "*.{ts,js}" },
      { signal },
    );
    assertEquals(all.content.split("\n"), [
      "a.ts:1:const needle = 1;",
      "build/out.js:1:needle built",
      "src/deep/c.ts:3:NEEDLE three",
      "src/deep/c.ts:6:needle six",
      "src/gen.ts:1:needle generated",
      "(5 matches in 4 files)",
    ]);
  });
});

Deno.test("grep() shows context lines and searches one file", async () => {
  await withTree(TREE, async (workspace) => {
    const grep = createGrepTool(workspace);
    const result = await grep.execute(
      { pattern: "needle", path: "src/deep/c.ts", context: 1, ignore_case: true },
      { signal },
    );
    assertEquals(result.content.split("\n"), [
      "src/deep/c.ts-2-two",
      "src/deep/c.ts:3:NEEDLE three",
      "src/deep/c.ts-4-four",
      "src/deep/c.ts-5-five",
      "src/deep/c.ts:6:needle six",
      "(2 matches in 1 file)",
    ]);
  });
});

Deno.test("grep() refuses an invalid regular expression and an ignored path, and says when nothing matches", async () => {
  await withTree(TREE, async (workspace) => {
    const grep = createGrepTool(workspace);
    await assertRejects(
      () => grep.execute({ pattern: "(unclosed" }, { signal }),
      SyntaxError,
      'Cannot grep: invalid regular expression "(unclosed": /(unclosed/: Unterminated group; ' +
        "escape special characters",
    );
    await assertRejects(
      () => grep.execute({ pattern: "x", path: "secret.txt" }, { signal }),
      Deno.errors.PermissionDenied,
      'Cannot access "secret.txt": "secret.txt" is ignored by .powercodeignore',
    );
    assertEquals(await grep.execute({ pattern: "absent", path: "src" }, { signal }), {
      content: 'No matches for "absent" in src',
      summary: "no matches",
    });
  });
});

Deno.test("grep() of 150 matches lists 100 and the count", async () => {
  const files: Record<string, string> = {};
  for (let index = 0; index < 150; index++) {
    files[`f${String(index).padStart(3, "0")}.txt`] = "hit\n";
  }
  await withTree(files, async (workspace) => {
    const lines = (await createGrepTool(workspace).execute({ pattern: "hit" }, { signal }))
      .content.split("\n");
    assertEquals(lines.length, 101);
    assertEquals(lines[99], "f099.txt:1:hit");
    assertEquals(lines[100], "… 50 more, narrow the search (150 matches in 150 files)");
  });
});

Deno.test("glob() matches whole paths from the search directory, sorted and filtered", async () => {
  await withTree(TREE, async (workspace) => {
    const glob = createGlobTool(workspace);
    assertEquals(
      (await glob.execute({ pattern: "**/*.ts" }, { signal })).content,
      "a.ts\nsrc/deep/c.ts",
    );
    assertEquals((await glob.execute({ pattern: "*.ts" }, { signal })).content, "a.ts");
    assertEquals(
      (await glob.execute({ pattern: "*.ts", path: "src", include_gitignored: true }, { signal }))
        .content,
      "src/gen.ts",
    );
    assertEquals(
      (await glob.execute({ pattern: "*.{log,md}" }, { signal })).content,
      "b.md\nkeep.log",
    );
    assertEquals(await glob.execute({ pattern: "*.py" }, { signal }), {
      content: 'No paths match "*.py"',
      summary: "no matches",
    });
  });
});

Deno.test("ls() lists entries to a depth, directories with a slash, and bounds the list", async () => {
  await withTree(TREE, async (workspace) => {
    const ls = createLsTool(workspace);
    assertEquals((await ls.execute({}, { signal })).content.split("\n"), [
      ".gitignore",
      ".powercodeignore",
      "a.ts",
      "b.md",
      "image.bin",
      "keep.log",
      "src/",
    ]);
    assertEquals((await ls.execute({ path: "src", depth: 3 }, { signal })).content.split("\n"), [
      "src/.gitignore",
      "src/deep/",
      "src/deep/c.ts",
    ]);
    await assertRejects(
      () => ls.execute({ path: "a.ts" }, { signal }),
      TypeError,
      'Cannot ls "a.ts": not a directory',
    );
  });
  const files: Record<string, string> = {};
  for (let index = 0; index < 120; index++) files[`d/f${index}`] = "";
  await withTree(files, async (workspace) => {
    const lines = (await createLsTool(workspace).execute({ path: "d" }, { signal })).content
      .split("\n");
    assertEquals([lines.length, lines.at(-1)], [101, "… 20 more, narrow the search"]);
  });
});
