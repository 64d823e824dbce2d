import { assert, assertEquals, assertRejects, assertStringIncludes } from "@std/assert";
import { createBashTool } from "../../src/tools/bash.ts";
import { createTools } from "../../src/tools/mod.ts";
import {
  probeBwrap,
  READ_ONLY_UNSANDBOXED_MESSAGE,
  Sandbox,
  type SandboxMode,
} from "../../src/sandbox/sandbox.ts";
import type { ToolOutput } from "../../src/tools/tool.ts";
import { createSandboxProject, SECRET_KEY, SECRET_SESSION } from "../support/sandbox_project.ts";

const HAS_BWRAP = await probeBwrap();
const MISSING =
  "Cannot run bash: bubblewrap (bwrap) is missing or cannot create a sandbox here; install it " +
  "(apt-get install bubblewrap) or start powercode with --unsandboxed-bash";

/** Runs `fn` with a temp dir holding `ws/` (the workspace) and an empty `outside/`. */
async function withWorkspace(fn: (root: string, parent: string) => Promise<void>): Promise<void> {
  const parent = await Deno.realPath(await Deno.makeTempDir({ prefix: "powercode_bash_" }));
  try {
    await Deno.mkdir(`${parent}/ws`);
    await Deno.mkdir(`${parent}/outside`);
    await fn(`${parent}/ws`, parent);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
}

function bash(
  root: string,
  args: Parameters<ReturnType<typeof createBashTool>["execute"]>[0],
  mode: SandboxMode = "bwrap",
): Promise<ToolOutput> {
  const signal = new AbortController().signal;
  return createBashTool(new Sandbox(root, mode)).execute(args, { signal });
}

/** A `sleep` argument no other process has, to find survivors with pgrep. */
function marker(): string {
  return `1000.${crypto.getRandomValues(new Uint32Array(1))[0]}`;
}

/** Command lines still running that contain `mark`, after up to 2 s for the kernel to reap. */
async function survivors(mark: string): Promise<string> {
  let found = "";
  for (let attempt = 0; attempt < 20; attempt++) {
    const { stdout } = await new Deno.Command("pgrep", { args: ["-af", mark] }).output();
    found = new TextDecoder().decode(stdout);
    if (found === "") return "";
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return found;
}

/** Starts a shell tree that ignores SIGTERM, with a background and a foreground child. */
function stubbornTree(mark: string): string {
  return `trap "" TERM; sleep ${mark} & (trap "" TERM; sleep ${mark}); wait`;
}

Deno.test("probeBwrap() finds a working bubblewrap (CI installs it; the sandbox tests need it)", () => {
  assert(
    HAS_BWRAP,
    "bwrap --ro-bind / / true failed: install bubblewrap (apt-get install bubblewrap)",
  );
});

Deno.test("bash() reports interleaved output and the exit code", async () => {
  await withWorkspace(async (root) => {
    const command = "echo out; sleep 0.05; echo err >&2; sleep 0.05; echo more; exit 3";
    assertEquals(await bash(root, { command }), {
      content: "out\nerr\nmore\nexit code 3",
      summary: "exit 3",
      isError: true,
      details: { kind: "command", command: command, end: { kind: "exit", code: 3 } },
    });
  });
});

Deno.test("bash() runs in the workspace and may write there", async () => {
  await withWorkspace(async (root) => {
    assertEquals(await bash(root, { command: "pwd; echo made > made.txt" }), {
      content: `${root}\nexit code 0`,
      summary: "exit 0",
      isError: false,
      details: {
        kind: "command",
        command: "pwd; echo made > made.txt",
        end: { kind: "exit", code: 0 },
      },
    });
    assertEquals(await Deno.readTextFile(`${root}/made.txt`), "made\n");
  });
});

Deno.test("bash() cannot write outside the workspace", async () => {
  await withWorkspace(async (root, parent) => {
    const mark = `powercode-${marker()}`;
    const command = `mkdir -p ../outside; echo x > ../outside/a.txt; echo x > ${parent}/b.txt; ` +
      `echo x > /etc/${mark}; echo x > $HOME/c.txt; touch /usr/${mark}`;
    const result = await bash(root, { command });
    assertEquals(result.summary, "exit 1");
    assertStringIncludes(result.content, `/etc/${mark}: Read-only file system`);
    assertEquals(await Array.fromAsync(Deno.readDir(`${parent}/outside`)), []);
    assertEquals(await Deno.stat(`${parent}/b.txt`).catch(() => "absent"), "absent");
    assertEquals(await Deno.stat(`/etc/${mark}`).catch(() => "absent"), "absent");
    assertEquals(await Deno.stat(`/usr/${mark}`).catch(() => "absent"), "absent");
  });
});

Deno.test("Sandbox.run() with a read-only workspace lets commands read it but not change it", async () => {
  await withWorkspace(async (root) => {
    await Deno.writeTextFile(`${root}/kept.txt`, "kept\n");
    const sandbox = new Sandbox(root, "bwrap", { workspace: "ro" });
    const signal = new AbortController().signal;
    const { output, end } = await sandbox.run(
      "exec 2>&1; cat kept.txt; echo x > f; rm kept.txt; ls",
      {
        timeoutMs: 10_000,
        signal,
      },
    );
    assertEquals(end, { kind: "exit", code: 0 });
    assertEquals(
      output.text,
      [
        "kept",
        "bash: line 1: f: Read-only file system",
        "rm: cannot remove 'kept.txt': Read-only file system",
        "kept.txt",
        "",
      ].join("\n"),
    );
    assertEquals(await Array.fromAsync(Deno.readDir(root), (entry) => entry.name), ["kept.txt"]);
    assertStringIncludes(
      createBashTool(sandbox).description,
      "Sandbox: the workspace is read-only (commands cannot change it), /tmp is private",
    );
    await assertRejects(
      () =>
        new Sandbox(root, "unsandboxed", { workspace: "ro" }).run("true", {
          timeoutMs: 1000,
          signal,
        }),
      Error,
      READ_ONLY_UNSANDBOXED_MESSAGE,
    );
  });
});

Deno.test("bash() gives commands a clean environment without the API key", async () => {
  await using project = await createSandboxProject();
  const { output, code } = await project.runInChild("env | sort", {
    asNobody: false,
    env: { OPENAI_API_KEY: "sk-powercode-test-secret" },
  });
  assertEquals([output, code], [
    "HOME=/tmp\nLANG=C.UTF-8\nPATH=/usr/local/bin:/usr/bin:/bin\n" +
    `PWD=${project.root}\nSHLVL=1\nTERM=dumb\n_=/usr/bin/env\n`,
    0,
  ]);
});

Deno.test("bash() has no network", async () => {
  await withWorkspace(async (root) => {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const accepted = listener.accept().then((conn) => {
      conn.close();
      return true;
    }, () => false);
    const port = listener.addr.port;
    try {
      const command = `echo hi > /dev/tcp/127.0.0.1/${port} && echo connected`;
      assertEquals(await bash(root, { command }), {
        content: "bash: connect: Connection refused\n" +
          `bash: line 1: /dev/tcp/127.0.0.1/${port}: Connection refused\nexit code 1`,
        summary: "exit 1",
        isError: true,
        details: { kind: "command", command: command, end: { kind: "exit", code: 1 } },
      });
    } finally {
      listener.close();
    }
    assertEquals(await accepted, false);
  });
});

Deno.test(
  "bash() kills the whole tree on timeout, even children that trap SIGTERM",
  async () => {
    await withWorkspace(async (root) => {
      const mark = marker();
      const started = Date.now();
      assertEquals(await bash(root, { command: stubbornTree(mark), timeout_seconds: 1 }), {
        content: "(no output)\ntimed out after 1 s; the command and all its processes were killed",
        summary: "timed out",
        isError: true,
        details: {
          kind: "command",
          command: stubbornTree(mark),
          end: { kind: "timeout", seconds: 1 },
        },
      });
      assert(Date.now() - started < 3000, "the kill does not wait for the children");
      assertEquals(await survivors(mark), "");
    });
  },
);

Deno.test("Sandbox.run() kills the whole tree on abort", async () => {
  await withWorkspace(async (root) => {
    const mark = marker();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 200);
    const { end } = await new Sandbox(root, "bwrap").run(stubbornTree(mark), {
      timeoutMs: 10_000,
      signal: controller.signal,
    });
    clearTimeout(timer);
    assertEquals(end, { kind: "aborted" });
    assertEquals(await survivors(mark), "");
  });
});

Deno.test("bash() ends background processes with the command", async () => {
  await withWorkspace(async (root) => {
    const mark = marker();
    assertEquals(await bash(root, { command: `sleep ${mark} & echo started` }), {
      content: "started\nexit code 0",
      summary: "exit 0",
      isError: false,
      details: {
        kind: "command",
        command: `sleep ${mark} & echo started`,
        end: { kind: "exit", code: 0 },
      },
    });
    assertEquals(await survivors(mark), "");
  });
});

Deno.test("bash() keeps the last 2000 lines with a note", async () => {
  await withWorkspace(async (root) => {
    const kept = Array.from({ length: 2000 }, (_, i) => `${3001 + i}`).join("\n");
    assertEquals(await bash(root, { command: "seq 1 5000" }), {
      content: "[Output cut: showing the last 2000 of 5000 lines (9.8 KB of 23.3 KB); 3000 " +
        "earlier lines were dropped. To see them, redirect the output to a file " +
        `(cmd > out.txt 2>&1) and read it with read_file]\n\n${kept}\nexit code 0`,
      summary: "exit 0",
      isError: false,
      details: { kind: "command", command: "seq 1 5000", end: { kind: "exit", code: 0 } },
    });
  });
});

Deno.test("bash() keeps the last 50 KB of a long output", async () => {
  await withWorkspace(async (root) => {
    const command = `for i in $(seq 1 3000); do printf "%0100d\\n" $i; done`;
    const kept = Array.from({ length: 506 }, (_, i) => `${2495 + i}`.padStart(100, "0"));
    assertEquals(await bash(root, { command }), {
      content: "[Output cut: showing the last 506 of 3000 lines (49.9 KB of 295.9 KB); 2494 " +
        "earlier lines were dropped. To see them, redirect the output to a file " +
        `(cmd > out.txt 2>&1) and read it with read_file]\n\n${kept.join("\n")}\nexit code 0`,
      summary: "exit 0",
      isError: false,
      details: { kind: "command", command: command, end: { kind: "exit", code: 0 } },
    });
  });
});

Deno.test("bash() reports an interruption before the start without running", async () => {
  await withWorkspace(async (root) => {
    const controller = new AbortController();
    controller.abort();
    const tool = createBashTool(new Sandbox(root, "bwrap"));
    assertEquals(await tool.execute({ command: "touch ran" }, { signal: controller.signal }), {
      content:
        "(no output)\ninterrupted by the user; the command and all its processes were killed",
      summary: "interrupted",
      isError: true,
      details: { kind: "command", command: "touch ran", end: { kind: "interrupted" } },
    });
    assertEquals(await Deno.stat(`${root}/ran`).catch(() => "absent"), "absent");
  });
});

Deno.test("bash() refuses bad timeouts and empty commands", async () => {
  await withWorkspace(async (root) => {
    for (const seconds of [0, 601]) {
      await assertRejects(
        () => bash(root, { command: "true", timeout_seconds: seconds }),
        RangeError,
        `Cannot run bash: timeout_seconds must be an integer from 1 to 600, got ${seconds}`,
      );
    }
    await assertRejects(
      () => bash(root, { command: "  " }),
      TypeError,
      "Cannot run bash: command is empty",
    );
  });
});

Deno.test("bash() refuses every call with an install hint when bwrap is unavailable", async () => {
  await withWorkspace(async (root) => {
    await assertRejects(() => bash(root, { command: "true" }, "unavailable"), Error, MISSING);
    // The probe runs at the first call, and warns then.
    const warnings: string[] = [];
    const { tools } = await createTools(root, {
      unsandboxedBash: false,
      probe: () => Promise.resolve(false),
      warn: (warning) => warnings.push(warning),
    });
    assertEquals(warnings, []);
    const tool = tools.find((candidate) => candidate.name === "bash");
    const signal = new AbortController().signal;
    await assertRejects(() => tool!.execute({ command: "true" }, { signal }), Error, MISSING);
    assertEquals(warnings, [
      "bubblewrap (bwrap) is missing or cannot create a sandbox here, so bash is " +
      "disabled; install it (apt-get install bubblewrap) or start powercode with " +
      "--unsandboxed-bash",
    ]);
    assertStringIncludes(tool!.description, "Currently disabled");
  });
});

Deno.test("createTools() warns that unsandboxed bash runs without a sandbox", async () => {
  await withWorkspace(async (root) => {
    const { warnings } = await createTools(root, { unsandboxedBash: true });
    assertEquals(warnings, [
      "bash runs WITHOUT a sandbox (--unsandboxed-bash): commands have your full user " +
      "rights and network access",
    ]);
  });
});

Deno.test("bash() unsandboxed clears the environment", async () => {
  await using project = await createSandboxProject();
  const command = `env | grep -c -e OPENAI -e POWERCODE; echo "$HOME $PWD"`;
  const { output } = await project.runInChild(command, {
    asNobody: false,
    mode: "unsandboxed",
    env: { OPENAI_API_KEY: "sk-powercode-test-secret", POWERCODE_API_KEY: "sk-powercode-other" },
  });
  assertEquals(output, `0\n/tmp ${project.root}\n`);
});

Deno.test("Sandbox.run() unsandboxed kills the process group on timeout and at the end", async () => {
  await withWorkspace(async (root) => {
    const sandbox = new Sandbox(root, "unsandboxed");
    const signal = new AbortController().signal;
    const mark = marker();
    const timedOut = await sandbox.run(stubbornTree(mark), { timeoutMs: 300, signal });
    assertEquals(timedOut.end, { kind: "timeout", timeoutMs: 300 });
    assertEquals(await survivors(mark), "");
    const finished = await sandbox.run(`sleep ${mark} & echo started`, { timeoutMs: 5000, signal });
    assertEquals([finished.output.text, finished.end], ["started\n", { kind: "exit", code: 0 }]);
    assertEquals(await survivors(mark), "");
  });
});

Deno.test("bash() cannot read the paths the sandbox hides (provider file, sessions)", async () => {
  // Outside /tmp: the sandbox's private /tmp would hide paths under it anyway.
  await using project = await createSandboxProject();
  const tool = createBashTool(new Sandbox(project.root, "bwrap", { hidden: project.hidden }));
  const command =
    "cat ../provider.json; ls -A ../.powercode | wc -l; cat ../.powercode/sessions/s.jsonl";
  const result = await tool.execute({ command }, { signal: new AbortController().signal });
  assert(!result.content.includes(SECRET_KEY), result.content);
  assert(!result.content.includes(SECRET_SESSION), result.content);
  assertStringIncludes(result.content, "\n0\n");
  assertStringIncludes(result.content, "exit code 1");
});

Deno.test("bash() binds every root read-write and guards the .git of each", async () => {
  await withWorkspace(async (root, parent) => {
    await Deno.mkdir(`${parent}/lib/.git/hooks`, { recursive: true });
    const sandbox = new Sandbox(root, "bwrap", { moreRoots: [`${parent}/lib`] });
    const command = `echo a > a.txt; echo b > ${parent}/lib/b.txt; ` +
      `echo x > ../outside/x.txt || echo outside refused; ` +
      `echo hook > ${parent}/lib/.git/hooks/pre-commit || echo hooks refused`;
    const result = await createBashTool(sandbox).execute({ command }, {
      signal: new AbortController().signal,
    });
    assertStringIncludes(result.content, "outside refused\n");
    assertStringIncludes(result.content, "hooks refused\n");
    assertEquals(await Deno.readTextFile(`${root}/a.txt`), "a\n");
    assertEquals(await Deno.readTextFile(`${parent}/lib/b.txt`), "b\n");
    assertEquals(await Array.fromAsync(Deno.readDir(`${parent}/outside`)), []);
    assertEquals(await Array.fromAsync(Deno.readDir(`${parent}/lib/.git/hooks`)), []);
  });
});
