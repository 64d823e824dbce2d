/**
 * ServerLauncher: a long-lived program (an MCP server) in the same sandbox as bash, talking
 * through stdin and stdout.
 */
import { assert, assertEquals, assertRejects, assertStringIncludes } from "@std/assert";
import {
  SERVER_BWRAP_MISSING,
  ServerLauncher,
  type ServerSpec,
} from "../../src/sandbox/server_launcher.ts";
import { createSandboxProject, SECRET_KEY, SECRET_SESSION } from "../support/sandbox_project.ts";

/** Runs `script` as a server that first echoes one line of stdin; returns all it printed. */
async function serve(
  launcher: ServerLauncher,
  script: string,
  options: Partial<ServerSpec> = {},
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  let stdout = "";
  let stderr = "";
  const decoder = new TextDecoder();
  const server = await launcher.launch({
    command: "bash",
    args: ["-c", `read -r line; echo "got $line"; ${script}`],
    env: {},
    network: false,
    ...options,
  }, {
    onStdout: (chunk) => void (stdout += decoder.decode(chunk)),
    onStderr: (chunk) => void (stderr += decoder.decode(chunk)),
  });
  await server.write("hello\n");
  const { code } = await server.exited;
  return { stdout, stderr, code };
}

Deno.test("ServerLauncher runs a server in the sandbox: workspace writable, the rest read-only, powercode's files masked, no capabilities", async () => {
  await using project = await createSandboxProject();
  await Deno.mkdir(`${project.root}/.git/hooks`, { recursive: true });
  // Writable for whoever runs the server: as root it holds no capability over nobody's files.
  await Deno.chmod(project.root, 0o777);
  const launcher = new ServerLauncher(project.root, "bwrap", { hidden: project.hidden });
  const { stdout, code } = await serve(
    launcher,
    [
      "pwd",
      `cd ${project.root}`,
      "echo made > made.txt && echo WROTE",
      "touch /usr/powercode-test 2>/dev/null || echo READONLY",
      "echo x > .git/hooks/pre-commit 2>/dev/null || echo HOOKS-READONLY",
      "cat ../provider.json ../.powercode/sessions/s.jsonl 2>&1",
      "grep ^CapEff /proc/self/status",
    ].join("; "),
  );
  assertEquals(code, 0);
  // It starts in "/", outside the workspace: nothing the agent wrote is found from there.
  assertStringIncludes(stdout, "got hello\n/\nWROTE\nREADONLY\nHOOKS-READONLY\n");
  assertStringIncludes(stdout, "cat: ../.powercode/sessions/s.jsonl: No such file or directory\n");
  assertStringIncludes(stdout, "CapEff:\t0000000000000000\n");
  assert(!stdout.includes(SECRET_KEY) && !stdout.includes(SECRET_SESSION), stdout);
  assertEquals(await Deno.readTextFile(`${project.root}/made.txt`), "made\n");
});

Deno.test("ServerLauncher gives a server no network unless asked, and only its own environment", async () => {
  await using project = await createSandboxProject();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepting = (async () => {
    for await (const connection of listener) connection.close();
  })();
  try {
    const launcher = new ServerLauncher(project.root, "bwrap", { hidden: project.hidden });
    const connect = `exec 3<>/dev/tcp/127.0.0.1/${listener.addr.port} 2>/dev/null && ` +
      "echo CONNECTED || echo REFUSED; env | sort | grep -v -e ^PWD= -e ^SHLVL= -e ^_=";
    const closed = await serve(launcher, connect, { env: { TOKEN: "t-1" } });
    assertEquals(
      closed.stdout,
      "got hello\nREFUSED\nHOME=/tmp\nLANG=C.UTF-8\nPATH=/usr/local/bin:/usr/bin:/bin\n" +
        "TERM=dumb\nTOKEN=t-1\n",
    );
    const open = await serve(launcher, connect, { network: true });
    assertStringIncludes(open.stdout, "got hello\nCONNECTED\n");
  } finally {
    listener.close();
    await accepting.catch(() => {});
  }
});

Deno.test("ServerLauncher.stop() ends a sandboxed server that ignores its closed stdin and SIGTERM", async () => {
  await using project = await createSandboxProject();
  const launcher = new ServerLauncher(project.root, "bwrap", { hidden: project.hidden });
  const server = await launcher.launch(
    { command: "bash", args: ["-c", "trap '' TERM; sleep 60 & wait"], env: {}, network: false },
    { onStdout: () => {}, onStderr: () => {} },
  );
  const started = Date.now();
  await server.stop();
  assert(Date.now() - started < 5000);
  // bwrap ends on SIGTERM, taking every process of the sandbox with it.
  assertEquals(await server.exited, { code: null, signal: "SIGTERM" });
});

Deno.test("ServerLauncher refuses servers without bubblewrap, and runs them directly only unsandboxed", async () => {
  await using project = await createSandboxProject();
  const spec = { command: "true", args: [], env: {}, network: false };
  const output = { onStdout: () => {}, onStderr: () => {} };
  await assertRejects(
    () => new ServerLauncher(project.root, "unavailable").launch(spec, output),
    Error,
    SERVER_BWRAP_MISSING,
  );
  const direct = new ServerLauncher(project.root, "unsandboxed");
  const { stdout, code } = await serve(direct, `cat ${project.dir}/provider.json; echo; pwd`);
  assertEquals(code, 0);
  assertEquals(stdout, `got hello\n{"apiKey": "${SECRET_KEY}"}\n\n/\n`);
});
