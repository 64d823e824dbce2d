/**
 * End-to-end: hooks of the settings file through the real program (`deno task start -p`)
 * against the strict fake server: a PostToolUse formatter changes the file after edit_file
 * and the model reads its output, a PreToolUse hook exiting 2 blocks the call with its
 * reason, every hook runs in the bash sandbox (no network, nothing written outside the roots),
 * a failing hook shows one line and the task goes on, a Stop hook sends the model back at
 * most 3 times, and a bad hook entry stops the start with exit 2.
 *
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import type { ChatMessage, RecordedRequest } from "../support/fake_server.ts";
import { skipWithout } from "../support/programs.ts";
import { createTempProject, type TempProject } from "../support/project.ts";
import { text, toolCall } from "../support/scripts.ts";
import { ENV, provider, startScriptedServer } from "../support/sessions.ts";

const ignore = skipWithout("bwrap");

function toolResults(request: RecordedRequest | undefined): string[] {
  return (request?.body?.messages ?? []).flatMap((message: ChatMessage) =>
    message.role === "tool" && typeof message.content === "string" ? [message.content] : []
  );
}

function userTexts(request: RecordedRequest | undefined): string[] {
  return (request?.body?.messages ?? []).flatMap((message: ChatMessage) =>
    message.role === "user" && typeof message.content === "string" ? [message.content] : []
  );
}

/** Writes the user's settings file of the workspace layout with `hooks`. */
async function writeHooks(project: TempProject, hooks: unknown): Promise<void> {
  await Deno.mkdir(`${project.dir}/.powercode`, { recursive: true });
  await Deno.writeTextFile(`${project.dir}/.powercode/settings.json`, JSON.stringify({ hooks }));
}

function command(line: string, extra: Record<string, unknown> = {}) {
  return { type: "command", command: line, ...extra };
}

Deno.test({
  name:
    "hooks e2e: a PostToolUse formatter changes the file after edit_file, gets the event on stdin, and the next request holds its output",
  ignore,
  fn: async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    await Deno.writeTextFile(`${project.workspace}/a.ts`, "let x = 1;\n");
    await writeHooks(project, {
      PostToolUse: [{
        matcher: "edit_file|write_file",
        hooks: [command("cat > .hook-input.json; sed -i 's/  */ /g' a.ts && echo 'fmt: a.ts'")],
      }],
    });
    const requests = scripted.play([
      toolCall("edit_file", { path: "a.ts", old_string: "x = 1", new_string: "y  =   2" }),
      text("Done."),
    ]);
    const result = await project.run(["-p", "rename x"], { env: ENV });
    assertEquals([result.code, result.stdout], [0, "Done.\n"], result.stderr);
    assertEquals(await Deno.readTextFile(`${project.workspace}/a.ts`), "let y = 2;\n");
    const [edit = ""] = toolResults(requests()[1]);
    assert(edit.endsWith("\n[PostToolUse hook]\nfmt: a.ts"), edit);
    const input = JSON.parse(await Deno.readTextFile(`${project.workspace}/.hook-input.json`));
    assertEquals(
      [input.hook_event_name, input.tool_name, input.tool_input, typeof input.session_id],
      [
        "PostToolUse",
        "edit_file",
        { path: "a.ts", old_string: "x = 1", new_string: "y  =   2" },
        "string",
      ],
    );
    assertStringIncludes(input.tool_response, "a.ts");
  },
});

Deno.test({
  name:
    "hooks e2e: a PreToolUse hook exiting 2 blocks write_file with its reason in the tool result; other tools run",
  ignore,
  fn: async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    await writeHooks(project, {
      PreToolUse: [{
        matcher: "write_file",
        hooks: [command("echo 'generated files are read-only here' >&2; exit 2")],
      }],
    });
    const requests = scripted.play([
      toolCall("write_file", { path: "gen.txt", content: "x\n" }),
      toolCall("bash", { command: "echo ran > ok.txt" }),
      text("Blocked."),
    ]);
    const result = await project.run(["-p", "write"], { env: ENV });
    assertEquals(result.code, 0, result.stderr);
    assertEquals(toolResults(requests()[1]), [
      "Error: Cannot run write_file: generated files are read-only here",
    ]);
    await assertMissing(`${project.workspace}/gen.txt`);
    assertEquals(await Deno.readTextFile(`${project.workspace}/ok.txt`), "ran\n");
  },
});

Deno.test({
  name:
    "hooks e2e: a hook runs in the sandbox: the network and writes outside the roots fail; a failing hook shows one line and the task goes on",
  ignore,
  fn: async () => {
    await using scripted = await startScriptedServer();
    // Outside /tmp, which the sandbox replaces with its own.
    await using project = await createTempProject({ parent: "/var/tmp" });
    await project.writeProvider(provider(scripted.server.url));
    const port = new URL(scripted.server.url).port;
    await writeHooks(project, {
      PostToolUse: [{
        hooks: [
          command(
            `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo net-reached || ` +
              `echo net-refused; touch ${project.dir}/planted 2>/dev/null && echo wrote || ` +
              "echo write-refused",
          ),
          command("echo broken >&2; exit 1"),
        ],
      }],
    });
    const requests = scripted.play([toolCall("bash", { command: "echo hi" }), text("Done.")]);
    const result = await project.run(["-p", "try"], { env: ENV });
    assertEquals([result.code, result.stdout], [0, "Done.\n"], result.stderr);
    assertEquals(toolResults(requests()[1]), [
      "hi\nexit code 0\n[PostToolUse hook]\nnet-refused\nwrite-refused",
    ]);
    await assertMissing(`${project.dir}/planted`);
    assertEquals(requests().length, 2);
    const lines = result.stderr.split("\n").filter((line) => line.includes("PostToolUse hook"));
    assertEquals(lines, [
      '⚠ PostToolUse hook "echo broken >&2; exit 1" failed (exit 1): broken; going on',
    ]);
  },
});

async function assertMissing(path: string): Promise<void> {
  const found = await Deno.lstat(path).then(() => true, () => false);
  assertEquals(found, false, `${path} exists`);
}

Deno.test({
  name:
    "hooks e2e: a Stop hook sends the model back with its reason 3 times at most; SessionStart and UserPromptSubmit output reaches the model",
  ignore,
  fn: async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    await writeHooks(project, {
      Stop: [{ hooks: [command(`echo '{"decision": "block", "reason": "run the tests"}'`)] }],
      UserPromptSubmit: [{ hooks: [command("echo 'branch: main'")] }],
      SessionStart: [{ hooks: [command(`sed 's/.*"source":"\\([a-z]*\\)".*/session \\1/'`)] }],
    });
    const requests = scripted.play([text("one"), text("two"), text("three"), text("four")]);
    const result = await project.run(["-p", "fix it"], { env: ENV });
    assertEquals(result.code, 0, result.stderr);
    assertStringIncludes(result.stdout, "four");
    // Consecutive user messages travel as one, joined by an empty line.
    const prompt = "[powercode] The user's SessionStart hook says:\nsession startup\n\nfix it" +
      "\n\n[powercode] The user's UserPromptSubmit hook says:\nbranch: main";
    const stop = "[powercode] The user's Stop hook says:\nrun the tests";
    assertEquals(requests().map(userTexts), [
      [prompt],
      [prompt, stop],
      [prompt, stop, stop],
      [prompt, stop, stop, stop],
    ]);
  },
});

Deno.test({
  name:
    "hooks e2e: a UserPromptSubmit hook exiting 2 refuses the prompt: the user reads why, nothing is sent",
  ignore,
  fn: async () => {
    await using scripted = await startScriptedServer();
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    await writeHooks(project, {
      UserPromptSubmit: [{
        hooks: [command("grep -q secret && echo 'no secrets here' && exit 2; exit 0")],
      }],
    });
    const requests = scripted.play([text("never")]);
    const result = await project.run(["-p", "print the secret"], { env: ENV });
    assertEquals(result.code, 1, result.stderr);
    assertStringIncludes(
      result.stderr,
      "A UserPromptSubmit hook refused the prompt: no secrets here",
    );
    assertEquals(requests().length, 0);
  },
});

Deno.test("hooks e2e: bad hook entries stop the start with exit 2, each named with file, field and value", async () => {
  await using project = await createTempProject();
  await project.writeProvider(provider("http://127.0.0.1:9/v1"));
  await writeHooks(project, {
    PostToolUse: [{ matcher: "edit(", hooks: [command("true")] }],
    PreToolUse: [{ hooks: [command("", { timeout: -1 }), { type: "prompt", command: "x" }] }],
    OnSave: [],
  });
  const result = await project.run(["-p", "hi"], { env: ENV });
  assertEquals(result.code, 2, result.stderr);
  const file = '".powercode/settings.json"';
  for (
    const problem of [
      `${file}: field "hooks.PostToolUse[0].matcher" "edit(" is not a regular expression`,
      `${file}: field "hooks.PreToolUse[0].hooks[0].command" "" must be a non-empty string`,
      `${file}: field "hooks.PreToolUse[0].hooks[0].timeout" -1 must be a number of seconds`,
      `${file}: field "hooks.PreToolUse[0].hooks[1].type" "prompt" must be "command"`,
      `${file}: field "hooks.OnSave" is unknown (known: PreToolUse, PostToolUse,`,
    ]
  ) assertStringIncludes(result.stderr, problem);
});

/** About `kilobytes` KB of numbered prose lines. */
function prose(name: string, kilobytes: number): string {
  const lines = [];
  for (let i = 1; lines.join("\n").length < kilobytes * 1024; i++) {
    lines.push(`${name} line ${i}: the quick brown fox jumps over the lazy dog.`);
  }
  return `${lines.join("\n")}\n`;
}

Deno.test({
  name:
    "hooks e2e: a PreCompact hook runs with trigger auto before a compaction the window needs, in the sandbox",
  ignore,
  fn: async () => {
    await using scripted = await startScriptedServer({ contextWindow: 7250 });
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url, { contextWindow: 7250 }));
    for (const name of ["one", "two"]) {
      await Deno.writeTextFile(`${project.workspace}/${name}.txt`, prose(name, 7));
    }
    await writeHooks(project, {
      PreCompact: [{ matcher: "auto", hooks: [command("cat >> .precompact.jsonl")] }],
    });
    scripted.play([
      toolCall("read_file", { path: "one.txt" }),
      text("Read one."),
      toolCall("read_file", { path: "two.txt" }),
      text("Read two."),
    ]);
    const result = await project.run([], { env: ENV, stdin: "read one.txt\nread two.txt\n" });
    assertEquals(result.code, 0, result.stderr);
    const sessions = `${project.dir}/.powercode/sessions`;
    const [file] = [...Deno.readDirSync(sessions)].filter((e) => e.name.endsWith(".jsonl"));
    assert(file);
    const compactions = (await Deno.readTextFile(`${sessions}/${file.name}`)).split("\n")
      .filter((line) => line.includes('"type":"compaction"')).length;
    assert(compactions > 0, "the session compacted");
    const lines = (await Deno.readTextFile(`${project.workspace}/.precompact.jsonl`)).trim()
      .split("\n").map((line) => JSON.parse(line));
    assertEquals(lines.length, compactions);
    assertEquals(
      lines.map((input) => [input.hook_event_name, input.trigger]),
      lines.map(() => ["PreCompact", "auto"]),
    );
  },
});
