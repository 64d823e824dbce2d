import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { scopeReport } from "../../../src/app/scope_report.ts";
import { Sandbox } from "../../../src/sandbox/sandbox.ts";
import { Workspace } from "../../../src/workspace/workspace.ts";

async function withScope(fn: (report: (width?: number) => Promise<string>) => Promise<void>) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "powercode_scope_" }));
  try {
    const root = `${dir}/a-rather-long-directory-name-for-the-project/workspace`;
    await Deno.mkdir(root, { recursive: true });
    const workspace = await Workspace.open(root);
    const sandbox = new Sandbox(root, "bwrap", {
      hidden: [{ path: `${dir}/provider.json`, isDirectory: false }],
    });
    const locations = {
      mode: "layout" as const,
      roots: [root],
      providerFile: `${dir}/provider.json`,
      configDir: `${dir}/.powercode`,
      stateDir: `${dir}/.powercode`,
    };
    await fn((width) => scopeReport({ locations, workspace, sandbox }, width));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("scopeReport() fits a terminal's width, each value's rows under its first", async () => {
  await withScope(async (report) => {
    for (const width of [80, 50]) {
      const rows = (await report(width)).split("\n");
      for (const row of rows) assert(row.length <= width, `${width}: ${row}`);
      const filter = rows.findIndex((row) => row.startsWith("  socket filter: seccomp: "));
      assert(filter > 0);
      assert(
        rows[filter + 1]?.startsWith(" ".repeat("  socket filter: ".length)),
        rows[filter + 1],
      );
    }
  });
});

Deno.test("scopeReport() without a width keeps one fact a line, for pipes", async () => {
  await withScope(async (report) => {
    const text = await report();
    assertStringIncludes(text, "  socket filter: seccomp: socket(AF_UNIX), socketpair other than");
    const line = text.split("\n").find((row) => row.startsWith("  socket filter: "));
    assertEquals(line?.endsWith("other system-call tables killed"), true, line);
  });
});

Deno.test("scopeReport() names every .git and git directory read-only under the git rule", async () => {
  await withScope(async (report) => {
    const line = (await report()).split("\n").find((row) => row.startsWith("  read-only: "));
    assertStringIncludes(line ?? "", "every .git and git directory of each root");
  });
});
