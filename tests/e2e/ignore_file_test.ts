import { assertEquals } from "@std/assert";
import { findIgnored, ignoreMounts, loadIgnoreRules } from "../../src/workspace/ignore_file.ts";
import { IgnoreRules } from "../../src/workspace/ignore_rules.ts";
import { createTools } from "../../src/tools/mod.ts";

/** A temp dir holding `ws/` with an ignore file, ignored and kept entries, and `state/`. */
async function withIgnoredTree(fn: (ws: string, parent: string) => Promise<void>): Promise<void> {
  const parent = await Deno.realPath(await Deno.makeTempDir({ prefix: "powercode_ignore_" }));
  const ws = `${parent}/ws`;
  try {
    await Deno.mkdir(`${ws}/app/secrets`, { recursive: true });
    await Deno.mkdir(`${ws}/.git`);
    await Deno.mkdir(`${parent}/state`);
    await Deno.writeTextFile(`${ws}/.powercodeignore`, ".env\nsecrets/\n");
    await Deno.writeTextFile(`${ws}/.env`, "TOKEN=top-secret\n");
    await Deno.writeTextFile(`${ws}/app/.env`, "TOKEN=nested-secret\n");
    await Deno.writeTextFile(`${ws}/app/secrets/key`, "private key\n");
    await Deno.writeTextFile(`${ws}/app/main.ts`, "code\n");
    await Deno.writeTextFile(`${ws}/.git/.env`, "git's own\n");
    await Deno.symlink(`${ws}/.env`, `${ws}/link.env`);
    await fn(ws, parent);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
}

Deno.test("findIgnored() lists ignored entries, not what ignored directories hold, nor links or .git", async () => {
  await withIgnoredTree(async (ws) => {
    const found = findIgnored(ws, await loadIgnoreRules(ws));
    found.sort((a, b) => a.path < b.path ? -1 : 1);
    assertEquals(found, [
      { path: `${ws}/.env`, isDirectory: false },
      { path: `${ws}/app/.env`, isDirectory: false },
      { path: `${ws}/app/secrets`, isDirectory: true },
    ]);
    assertEquals(findIgnored(ws, IgnoreRules.NONE), []);
  });
});

Deno.test("ignoreMounts() covers files with the empty file, directories with a tmpfs, pins their directories, and keeps the ignore file read-only", async () => {
  await withIgnoredTree(async (ws, parent) => {
    await Deno.writeTextFile(`${parent}/state/empty`, "not empty");
    await Deno.remove(`${ws}/app/.env`);
    const args = await ignoreMounts(ws, await loadIgnoreRules(ws), `${parent}/state/empty`);
    assertEquals(args, {
      pins: ["--bind", `${ws}/app`, `${ws}/app`],
      masks: [
        ...["--ro-bind", `${parent}/state/empty`, `${ws}/.env`],
        ...["--tmpfs", `${ws}/app/secrets`, "--remount-ro", `${ws}/app/secrets`],
        ...["--ro-bind", `${ws}/.powercodeignore`, `${ws}/.powercodeignore`],
      ],
    });
    assertEquals(await Deno.readTextFile(`${parent}/state/empty`), "");
  });
});

Deno.test("bash reads ignored files as empty and cannot change them or the ignore file", async () => {
  await withIgnoredTree(async (ws, parent) => {
    const { tools } = await createTools(ws, { unsandboxedBash: false, emptyFile: `${parent}/e` });
    const bash = tools.find((tool) => tool.name === "bash");
    const command = "cat .env app/.env link.env; ls app/secrets; cat app/main.ts; " +
      "echo x > .env || echo refused; rm -f app/.env || echo kept; " +
      "echo '!*' >> .powercodeignore || echo rules kept; touch app/secrets/new || echo no new";
    const result = await bash?.execute({ command }, { signal: new AbortController().signal });
    // The refusals' own lines (read-only file system, mount point busy) vary by tool.
    const lines = (result?.content ?? "").split("\n").filter((line) => !/: /.test(line));
    assertEquals(lines, ["code", "refused", "kept", "rules kept", "no new", "exit code 0"]);
    assertEquals(await Deno.readTextFile(`${ws}/.env`), "TOKEN=top-secret\n");
    assertEquals(await Deno.readTextFile(`${ws}/app/.env`), "TOKEN=nested-secret\n");
    assertEquals(await Deno.readTextFile(`${ws}/.powercodeignore`), ".env\nsecrets/\n");
    assertEquals(await Deno.readTextFile(`${parent}/e`), "");
  });
});

Deno.test("an MCP server in the sandbox reads ignored files as empty too", async () => {
  await withIgnoredTree(async (ws, parent) => {
    const { servers } = await createTools(ws, { unsandboxedBash: false, emptyFile: `${parent}/e` });
    let stdout = "";
    const server = await servers.launch({
      command: "bash",
      args: ["-c", `cd ${ws} && cat .env app/.env; ls app/secrets; cat app/main.ts`],
      env: {},
      network: false,
    }, {
      onStdout: (chunk) => void (stdout += new TextDecoder().decode(chunk)),
      onStderr: () => {},
    });
    assertEquals((await server.exited).code, 0);
    assertEquals(stdout, "code\n");
  });
});
