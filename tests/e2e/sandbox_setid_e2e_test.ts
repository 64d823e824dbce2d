/**
 * End-to-end: no command and no stdio MCP server leaves a set-user-id or set-group-id file
 * or directory in the project (a root shell for any local user when powercode runs as
 * root), whichever call it tries; and both run with `no_new_privs`. Through the installed
 * command as root, and through the real tools as nobody.
 */
import { assert, assertEquals } from "@std/assert";
import { type ChatMessage, startFakeServer } from "../support/fake_server.ts";
import { createInstalledHome } from "../support/installed.ts";
import { writeMcpConfig } from "../support/mcp.ts";
import { chownTree, runAsNobody } from "../support/own_files_child.ts";
import { isRoot } from "../support/sandbox_project.ts";
import { sequence, text, toolCall } from "../support/scripts.ts";
import { ENV, KEY, provider } from "../support/sessions.ts";

const AS_ROOT = await isRoot();

/**
 * Every way to a set-id mode in the working directory `prefix`: chmod (symbolic, octal,
 * on a directory), install -m, cp -p of a set-uid program, mkdir -m, open(O_CREAT) and
 * mknod with a set-id mode, fchmod; then prints NoNewPrivs.
 */
function makeSetId(prefix: string): string {
  const python = (code: string) => `python3 -c '${code}'`;
  return [
    `mkdir -p ${prefix} && cd ${prefix}`,
    "cp /bin/true suid && chmod u+s suid",
    "cp /bin/true sgid && chmod 2755 sgid",
    "mkdir dir && chmod g+s dir",
    "install -m 4755 /bin/true installed",
    "cp -p $(command -v su || command -v mount) copied",
    "mkdir -m 2775 made",
    python('import os; os.close(os.open("opened", os.O_CREAT | os.O_WRONLY, 0o4755))'),
    python('import os; os.mknod("node", 0o106755)'),
    python('import os; f = os.open("fch", os.O_CREAT | os.O_WRONLY, 0o755); os.fchmod(f, 0o4755)'),
    "grep NoNewPrivs /proc/self/status",
    "echo END",
  ].join("; ");
}

/** Every path below `dir` whose mode has a set-id bit, with its mode in octal. */
async function setIdFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    const { mode } = await Deno.lstat(path);
    if (mode !== null && (mode & 0o6000) !== 0) found.push(`${path} ${mode.toString(8)}`);
    if (entry.isDirectory) found.push(...await setIdFiles(path));
  }
  return found;
}

function assertRanConfined(output: string, what: string): void {
  assert(output.includes("NoNewPrivs:\t1"), `${what} ran without no_new_privs:\n${output}`);
  assert(output.includes("END"), `${what} did not run to its end:\n${output}`);
}

function toolResults(messages: ChatMessage[] = []): string[] {
  return messages.filter((message) => message.role === "tool").map((m) => String(m.content));
}

Deno.test("powercode leaves no set-id file from bash or an MCP server in the project", async () => {
  await using installed = await createInstalledHome({ parent: "/var/tmp" });
  const { home, project } = installed;
  await using server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    handler: sequence([toolCall("bash", { command: makeSetId("bash") }), text("Done.")]),
  });
  await installed.writeProvider(provider(server.url));
  const leak = `${project}/server-output.txt`;
  await writeMcpConfig(`${home}/.config/powercode/mcp.json`, {
    setid: {
      command: "bash",
      args: ["-c", `{ ${makeSetId(`${project}/server`)}; } > ${leak} 2>&1`],
    },
  });
  const result = await installed.run(["-p", "make a set-id file"], { env: ENV });
  assertEquals([result.code, result.stdout], [0, "Done.\n"], result.stderr);
  const [ran = ""] = toolResults(server.requests.at(-1)?.body?.messages);
  assertRanConfined(ran, "bash");
  assertRanConfined(await Deno.readTextFile(leak), "the MCP server");
  assertEquals(await setIdFiles(project), []);
});

Deno.test({
  name: "createTools() leaves no set-id file from bash or a server, as nobody",
  ignore: !AS_ROOT,
  async fn() {
    const dir = await Deno.realPath(
      await Deno.makeTempDir({ dir: "/var/tmp", prefix: "powercode_setid_" }),
    );
    try {
      await Deno.chmod(dir, 0o755);
      const root = `${dir}/project`;
      await Deno.mkdir(root);
      await chownTree(root);
      const seen = await runAsNobody(dir, {
        root,
        hide: [],
        // Bash and the server each in a directory of their own: the second mkdir would fail.
        command: `${makeSetId("$$")}`,
        env: {},
      });
      assertRanConfined(seen.bash, "bash");
      assertRanConfined(seen.server, "the server");
      assertEquals(await setIdFiles(root), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
