/**
 * Issue 36 item 18: a run probes bubblewrap only when something first needs the sandbox, once,
 * shared by every user; a task without commands starts no bwrap process at all. Proven with a
 * `bwrap` on PATH that records each of its calls before it runs the real one (or fails).
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { skipWithout } from "../support/programs.ts";
import { createTempProject, type TempProject } from "../support/project.ts";
import { screenLines, startInTmux, typeTask } from "../support/repl_pane.ts";
import { text, toolCall, toolCalls } from "../support/scripts.ts";
import { ENV, provider, type ScriptedServer, startScriptedServer } from "../support/sessions.ts";
import type { RecordedRequest } from "../support/fake_server.ts";

const NO_BWRAP = skipWithout("bwrap");

/** The probe of the hidden paths runs `realpath -z` in the sandbox; a command does not. */
const PROBE_MARK = "realpath -z";

const WARNING = "⚠ bubblewrap (bwrap) is missing or cannot create a sandbox here, so bash is " +
  "disabled";
const REFUSAL = "Cannot run bash: bubblewrap (bwrap) is missing or cannot create a sandbox here";

/** A temp project whose PATH starts with a recording `bwrap`, and what it recorded. */
interface RecordingProject {
  project: TempProject;
  /** The environment of a run: PATH with the recording `bwrap` first. */
  env: Record<string, string>;
  /** Runs powercode with `args`, expects exit code 0, and returns its stderr. */
  run(args: string[]): Promise<string>;
  /** The arguments of each bwrap call so far, one line each. */
  calls(): Promise<string[]>;
}

/** A project whose PATH starts with a recording `bwrap`; `works: false` makes it fail. */
async function withRecordingBwrap(
  works: boolean,
  scripted: ScriptedServer,
  fn: (recording: RecordingProject) => Promise<void>,
): Promise<void> {
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const bin = `${project.dir}/bin`;
  const log = `${project.dir}/bwrap_calls.log`;
  const real = new TextDecoder().decode(
    (await new Deno.Command("sh", { args: ["-c", "command -v bwrap"], stdout: "piped" }).output())
      .stdout,
  ).trim();
  await Deno.mkdir(bin);
  // One line per call: its arguments with the newlines of a script flattened.
  await Deno.writeTextFile(
    `${bin}/bwrap`,
    `#!/bin/sh\nprintf '%s\\n' "$*" | tr '\\n' ' ' >> '${log}'\necho >> '${log}'\n` +
      (works ? `exec '${real}' "$@"\n` : "exit 1\n"),
    { mode: 0o755 },
  );
  const env = { ...ENV, PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}` };
  // Commands find bwrap by their own PATH: the recording one first there too.
  await Deno.mkdir(`${project.dir}/.powercode`, { recursive: true });
  await Deno.writeTextFile(
    `${project.dir}/.powercode/settings.json`,
    JSON.stringify({ shell: { path: [bin] } }),
  );
  await fn({
    project,
    env,
    async run(args) {
      const result = await project.run(args, { env });
      assertEquals(result.code, 0, result.stderr);
      return result.stderr;
    },
    async calls() {
      const written = await Deno.readTextFile(log).catch(() => "");
      return written.split("\n").filter((line) => line !== "");
    },
  });
}

/** The screen's text with each run of whitespace (a wrapped line's break) as one space. */
function flat(screen: string): string {
  return screenLines(screen).join(" ").replace(/\s+/g, " ");
}

/** The content of the tool results in `request`, in order. */
function toolResults(request: RecordedRequest | undefined): string[] {
  return (request?.body?.messages ?? []).filter((message) => message.role === "tool")
    .map((message) => String(message.content));
}

Deno.test({
  name: "a -p task without a tool call starts no bwrap process",
  ignore: NO_BWRAP,
  async fn() {
    await using scripted = await startScriptedServer();
    await withRecordingBwrap(true, scripted, async ({ run, calls }) => {
      scripted.play([text("Hi.")]);
      await run(["-p", "hi"]);
      assertEquals(await calls(), []);
    });
  },
});

Deno.test({
  name: "a bash call probes bubblewrap once, then runs the command in the sandbox",
  ignore: NO_BWRAP,
  async fn() {
    await using scripted = await startScriptedServer();
    await withRecordingBwrap(true, scripted, async ({ run, calls }) => {
      const requests = scripted.play([
        toolCall("bash", { command: "echo marker-one; cat /proc/1/comm" }),
        text("Done."),
      ]);
      await run(["-p", "run it"]);
      const made = await calls();
      assertEquals(made.filter((line) => line.includes(PROBE_MARK)).length, 1, made.join("\n"));
      assertEquals(made.filter((line) => line.includes("marker-one")).length, 1);
      const [result] = toolResults(requests()[1]);
      assertStringIncludes(String(result), "marker-one\nbwrap");
    });
  },
});

Deno.test({
  name: "two bash calls in one reply share one probe",
  ignore: NO_BWRAP,
  async fn() {
    await using scripted = await startScriptedServer();
    await withRecordingBwrap(true, scripted, async ({ run, calls }) => {
      const requests = scripted.play([
        toolCalls([
          { name: "bash", args: { command: "echo marker-a" } },
          { name: "bash", args: { command: "echo marker-b" } },
        ]),
        text("Done."),
      ]);
      await run(["-p", "run both"]);
      const made = await calls();
      assertEquals(made.filter((line) => line.includes(PROBE_MARK)).length, 1, made.join("\n"));
      assertEquals(made.filter((line) => /marker-[ab]/.test(line)).length, 2);
      const results = toolResults(requests()[1]);
      assert(results.some((result) => result.startsWith("marker-a")), results.join("\n"));
      assert(results.some((result) => result.startsWith("marker-b")), results.join("\n"));
    });
  },
});

Deno.test({
  name: "-p without a working bwrap warns at the first bash call, which is refused",
  ignore: NO_BWRAP,
  async fn() {
    await using scripted = await startScriptedServer();
    await withRecordingBwrap(false, scripted, async ({ run, calls }) => {
      scripted.play([text("Hi.")]);
      assert(!(await run(["-p", "hi"])).includes(WARNING), "no warning without a command");
      assertEquals(await calls(), []);
      const requests = scripted.play([
        toolCalls([
          { name: "bash", args: { command: "echo one" } },
          { name: "bash", args: { command: "echo two" } },
        ]),
        text("Done."),
      ]);
      const stderr = await run(["-p", "run it"]);
      // Once, when the probe runs: before the first call's refusal is shown.
      assertEquals(stderr.split(WARNING).length, 2, stderr);
      assert(stderr.indexOf(WARNING) < stderr.indexOf(`✗ ${REFUSAL}`), stderr);
      const results = toolResults(requests()[1]);
      assertEquals(results.length, 2);
      for (const result of results) assertStringIncludes(result, REFUSAL);
    });
  },
});

Deno.test({
  name: "the REPL without a working bwrap warns at its start and refuses a command",
  ignore: NO_BWRAP || skipWithout("tmux"),
  async fn() {
    await using scripted = await startScriptedServer();
    await withRecordingBwrap(false, scripted, async ({ project, env }) => {
      await using pane = await startInTmux(project, { env });
      assertStringIncludes(flat(await pane.screen()), WARNING);
      await typeTask(pane, "!echo one");
      await pane.waitFor((screen) => flat(screen).includes(REFUSAL), REFUSAL);
    });
  },
});
