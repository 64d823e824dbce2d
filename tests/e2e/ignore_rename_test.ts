/**
 * `.powercodeignore` against renames: a command cannot move an ignored entry, or a directory
 * holding one, to a name the rules do not match (issue 35, item 4), as root and as nobody,
 * in bash and in an MCP server; git's guard still holds inside such a directory.
 */
import { assert, assertEquals } from "@std/assert";
import { isRoot } from "../support/sandbox_project.ts";
import { createTools } from "../../src/tools/mod.ts";

const NOBODY = 65534;
const SRC = new URL("../../src/", import.meta.url);
/** Tries every rename and removal that would take a secret out of the rules' reach. */
const MOVES = "mv config cfg; mv app app2; mv keys k2; mv sub sub2; rm -rf app; " +
  "echo '[core]' >> sub/.git/config || echo GIT-READONLY; ls";
/** What the next command would read under the new names. */
const READS = "cat cfg/secrets.env app2/config/key k2/key sub2/.env 2>/dev/null; echo END";

/** A project dir under /var/tmp (the sandbox's /tmp is private), usable by nobody. */
async function withProject(fn: (dir: string, ws: string) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(
    await Deno.makeTempDir({ dir: "/var/tmp", prefix: "powercode_rename_" }),
  );
  const ws = `${dir}/ws`;
  try {
    await Deno.chmod(dir, 0o755);
    for (const sub of ["config", "app/config", "keys", "sub/.git"]) {
      await Deno.mkdir(`${ws}/${sub}`, { recursive: true });
    }
    await Deno.writeTextFile(
      `${ws}/.powercodeignore`,
      "config/secrets.env\n/app/config/\nkeys/\n.env\n",
    );
    await Deno.writeTextFile(`${ws}/config/secrets.env`, "SECRET-1\n");
    await Deno.writeTextFile(`${ws}/app/config/key`, "SECRET-2\n");
    await Deno.writeTextFile(`${ws}/keys/key`, "SECRET-3\n");
    await Deno.writeTextFile(`${ws}/sub/.env`, "SECRET-4\n");
    await Deno.writeTextFile(`${ws}/sub/.git/config`, "");
    await fn(dir, ws);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function assertUnmoved(ws: string): Promise<void> {
  assertEquals(await Deno.readTextFile(`${ws}/config/secrets.env`), "SECRET-1\n");
  assertEquals(await Deno.readTextFile(`${ws}/app/config/key`), "SECRET-2\n");
  assertEquals(await Deno.readTextFile(`${ws}/keys/key`), "SECRET-3\n");
  assertEquals(await Deno.readTextFile(`${ws}/sub/.env`), "SECRET-4\n");
  assertEquals(await Deno.readTextFile(`${ws}/sub/.git/config`), "");
}

/** The lines of `text` that are no refusal (refusals name a path, with a colon). */
function plainLines(text: string): string[] {
  return text.split("\n").filter((line) => line !== "" && !/: /.test(line));
}

Deno.test("bash cannot rename an ignored entry or a directory holding one, so nothing un-ignores", async () => {
  await withProject(async (dir, ws) => {
    const { tools } = await createTools(ws, { unsandboxedBash: false, emptyFile: `${dir}/e` });
    const bash = tools.find((tool) => tool.name === "bash");
    const signal = new AbortController().signal;
    const moved = await bash?.execute({ command: MOVES }, { signal });
    assertEquals(plainLines(moved?.content ?? ""), [
      "GIT-READONLY",
      "app",
      "config",
      "keys",
      "sub",
      "exit code 0",
    ]);
    const read = await bash?.execute({ command: READS }, { signal });
    assertEquals(read?.content, "END\nexit code 0");
    await assertUnmoved(ws);
  });
});

Deno.test("bash cannot rename a directory holding an ignored entry as nobody either", async () => {
  if (!(await isRoot())) return;
  await withProject(async (dir, ws) => {
    await new Deno.Command("cp", { args: ["-r", SRC.pathname, `${dir}/src`] }).output();
    await Deno.writeTextFile(`${dir}/run.ts`, CHILD_SCRIPT);
    const chown = await new Deno.Command("chown", { args: ["-R", `${NOBODY}:${NOBODY}`, dir] })
      .output();
    assert(chown.success);
    const { code, stdout, stderr } = await new Deno.Command("setpriv", {
      args: [
        ...[`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "--"],
        ...[Deno.execPath(), "run", "-A", "--no-config", "--no-lock", `${dir}/run.ts`],
        ...[ws, `${dir}/e`, MOVES, READS],
      ],
      clearEnv: true,
      env: { PATH: "/usr/local/bin:/usr/bin:/bin", DENO_DIR: `${dir}/deno_dir` },
      cwd: dir,
      stdin: "null",
    }).output();
    assert(code === 0, new TextDecoder().decode(stderr));
    const [moved, read] = JSON.parse(new TextDecoder().decode(stdout));
    assertEquals(plainLines(moved), ["GIT-READONLY", "app", "config", "keys", "sub"]);
    assertEquals(read, "END\n");
    await assertUnmoved(ws);
  });
});

Deno.test("an MCP server cannot rename a directory holding an ignored entry", async () => {
  await withProject(async (dir, ws) => {
    const { servers } = await createTools(ws, { unsandboxedBash: false, emptyFile: `${dir}/e` });
    let stdout = "";
    const server = await servers.launch({
      command: "bash",
      args: ["-c", `cd "$1" && { ${MOVES}; } 2>/dev/null; ${READS}`, "bash", ws],
      env: {},
      network: false,
    }, {
      onStdout: (chunk) => void (stdout += new TextDecoder().decode(chunk)),
      onStderr: () => {},
    });
    assertEquals((await server.exited).code, 0);
    assertEquals(stdout, "GIT-READONLY\napp\nconfig\nkeys\nsub\nEND\n");
    await assertUnmoved(ws);
  });
});

/** Runs each command through the real Sandbox with the ignore file's mounts, as main.ts does. */
const CHILD_SCRIPT = `import { ignoreMounts, Workspace } from "./src/workspace/mod.ts";
import { Sandbox } from "./src/sandbox/sandbox.ts";
const [ws, empty, ...commands] = Deno.args;
const workspace = await Workspace.open(ws);
const mounts = () => ignoreMounts(ws, workspace.ignore, empty);
const sandbox = new Sandbox(ws, "bwrap", { mounts });
const outputs = [];
for (const command of commands) {
  const result = await sandbox.run(command, { timeoutMs: 20000, signal: new AbortController().signal });
  outputs.push(result.output.text);
}
console.log(JSON.stringify(outputs));
`;
