/**
 * End-to-end: project mode through the installed command (`deno task install`), in a temp
 * home of its own, against the fake server: the directory it is started in is the
 * workspace, the state lives under the XDG state directory, and the permission set is
 * computed per run.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { type ChatMessage, startFakeServer } from "../support/fake_server.ts";
import { createInstalledHome, snapshot } from "../support/installed.ts";
import { sequence, text, toolCall } from "../support/scripts.ts";
import { ENV, KEY, provider } from "../support/sessions.ts";

function toolResults(messages: ChatMessage[] = []): string[] {
  return messages.filter((message) => message.role === "tool").map((m) => String(m.content));
}

/** The session files under a project state directory of `states`. */
async function sessionFiles(states: string): Promise<string[]> {
  const files: string[] = [];
  for await (const project of Deno.readDir(states)) {
    for await (const file of Deno.readDir(`${states}/${project.name}/sessions`)) {
      files.push(`${states}/${project.name}/sessions/${file.name}`);
    }
  }
  return files;
}

Deno.test("powercode -p in a project reads and edits its files, keeps its state outside, and refuses paths outside", async () => {
  await using installed = await createInstalledHome();
  const { home, project } = installed;
  await Deno.writeTextFile(`${project}/notes.txt`, "one\n");
  await Deno.writeTextFile(`${home}/secret.txt`, "secret\n");
  await using server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    handler: sequence([
      toolCall("read_file", { path: "notes.txt" }),
      toolCall("edit_file", { path: "notes.txt", old_string: "one", new_string: "two" }),
      toolCall("read_file", { path: `${home}/secret.txt` }),
      toolCall("read_file", { path: "../secret.txt" }),
      toolCall("bash", {
        command: `pwd; cat ${installed.providerFile}; ls ${installed.states}; ` +
          `echo x > ${home}/made.txt`,
      }),
      text("Done."),
    ]),
  });
  await installed.writeProvider(provider(server.url));
  const before = await snapshot(project);
  const result = await installed.run(["-p", "edit the notes"], { env: ENV });
  assertEquals([result.code, result.stdout], [0, "Done.\n"], result.stderr);
  assertEquals(await snapshot(project), { ...before, "notes.txt": "two\n" });
  const [read, edit, absolute, up, ran] = toolResults(server.requests.at(-1)?.body?.messages);
  assertEquals([read, edit], [
    "one\n",
    'Edited "notes.txt": replaced 1 occurrence; changed line 1',
  ]);
  assertEquals([absolute, up], [
    `Error: Cannot access "${home}/secret.txt": path escapes the workspace`,
    `Error: Cannot access "../secret.txt": path escapes the workspace`,
  ]);
  assertStringIncludes(ran ?? "", `${project}\n`);
  // The whole configuration directory is an empty directory in the sandbox.
  assertStringIncludes(ran ?? "", `${installed.providerFile}: No such file or directory\n`);
  assert(!(ran ?? "").includes(KEY), "bash read the provider file");
  // The home lies in /tmp, which the sandbox replaces with its own: the write stayed there.
  assertEquals(await Deno.stat(`${home}/made.txt`).catch(() => "absent"), "absent");
  const [file, ...more] = await sessionFiles(installed.states);
  assertEquals(more, []);
  assertMatch(file ?? "", /\/project-[0-9a-f]{12}\/sessions\/[^/]+\.jsonl$/);
  const header = JSON.parse((await Deno.readTextFile(file ?? "")).split("\n")[0] ?? "");
  assertEquals(header.roots, [project]);
});

Deno.test("powercode refuses /, the home directory and a missing directory with exit 2 and one line", async () => {
  await using installed = await createInstalledHome();
  const { home } = installed;
  const refusals: [string[], string, string][] = [
    [["--dir", "/"], home, 'Cannot work on "/" (--dir): it is the root of the file system'],
    [["-C", home], home, `Cannot work on "${home}" (--dir): it is your home directory`],
    [[], home, `Cannot work on "${home}" (the current directory): it is your home directory`],
    [["--add-dir", "nope"], installed.project, 'Cannot work on "nope" (--add-dir): no such'],
  ];
  for (const [args, cwd, message] of refusals) {
    const result = await installed.run([...args, "-p", "hi"], { cwd });
    assertEquals([result.code, result.stdout], [2, ""]);
    assertEquals(result.stderr.split("\n").length, 2, result.stderr);
    assert(result.stderr.startsWith(`powercode: ${message}`), result.stderr);
  }
  await Deno.mkdir(`${home}/a,b`);
  const comma = await installed.run(["--dir", `${home}/a,b`, "--scope"]);
  assertEquals(comma.code, 2);
  assertStringIncludes(comma.stderr, "its path holds a comma, which Deno's permission flags");
});

Deno.test("powercode --scope names the roots, the files and Deno's grants, and says bash has no network", async () => {
  await using installed = await createInstalledHome();
  const { home, project } = installed;
  await Deno.mkdir(`${home}/lib`);
  const before = await snapshot(project);
  const result = await installed.run(["--add-dir", "../lib", "--scope"]);
  assertEquals([result.code, result.stderr], [0, ""]);
  assertEquals(
    await Deno.stat(installed.states).catch(() => "absent"),
    "absent",
    "--scope made the state directory",
  );
  const lines = result.stdout.split("\n");
  assertEquals(lines.slice(0, 4), [
    "powercode scope (project mode)",
    "Roots (the tools work here, the first is the working directory):",
    `  ${project}`,
    `  ${home}/lib`,
  ]);
  assertStringIncludes(result.stdout, `Provider file:   ${installed.providerFile}\n`);
  assertMatch(result.stdout, /State directory: .*\/powercode\/projects\/project-[0-9a-f]{12}\n/);
  const read = lines.find((line) => line.startsWith("  read "));
  assertMatch(read ?? "", /^ {2}read {3}granted: .* · not granted: anything else$/);
  assertStringIncludes(read ?? "", `${project}, ${home}/lib, ${installed.providerFile}`);
  assertMatch(
    result.stdout,
    /\n {2}env {4}granted: OPENAI_\*, POWERCODE_\*, NO_COLOR · not granted: HOME, anything else\n/,
  );
  assertStringIncludes(result.stdout, `  read-write:    ${project}, ${home}/lib\n`);
  assertStringIncludes(result.stdout, "  network:       off (own network namespace)\n");
  assertStringIncludes(result.stdout, "  capabilities:  all dropped\n");
  assertStringIncludes(result.stdout, "  socket filter: seccomp: socket(AF_UNIX)");
  assertEquals(await snapshot(project), before);
});

Deno.test("powercode refuses what .powercodeignore ignores: read_file says so, bash reads it empty", async () => {
  await using installed = await createInstalledHome();
  const { project } = installed;
  await Deno.writeTextFile(`${project}/.powercodeignore`, "# secrets\n.env\n");
  await Deno.writeTextFile(`${project}/.env`, "TOKEN=very-secret\n");
  await using server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    handler: sequence([
      toolCall("read_file", { path: ".env" }),
      toolCall("bash", { command: "cat .env; wc -c < .env; echo x > .env || echo unchanged" }),
      toolCall("write_file", { path: ".powercodeignore", content: "" }),
      text("Nothing to see."),
    ]),
  });
  await installed.writeProvider(provider(server.url));
  const result = await installed.run(["-p", "show the secrets"], { env: ENV });
  assertEquals([result.code, result.stdout], [0, "Nothing to see.\n"], result.stderr);
  const [read, ran, rewrite] = toolResults(server.requests.at(-1)?.body?.messages);
  assertEquals(read, 'Error: Cannot access ".env": ".env" is ignored by .powercodeignore');
  // `cat` prints nothing and `wc` counts 0; the refused write's error line is on stderr, whose
  // order against stdout the pipes do not keep.
  const lines = (ran ?? "").split("\n");
  assertEquals([lines.length, lines.at(-1)], [4, "exit code 0"], ran);
  assertEquals(lines.indexOf("0") < lines.indexOf("unchanged"), true, ran);
  assertEquals(lines.filter((line) => line !== "0" && line !== "unchanged").length, 2, ran);
  assertStringIncludes(rewrite ?? "", 'Cannot change ".powercodeignore"');
  assertEquals(await Deno.readTextFile(`${project}/.env`), "TOKEN=very-secret\n");
  assertEquals(await Deno.readTextFile(`${project}/.powercodeignore`), "# secrets\n.env\n");
});

Deno.test("powercode --add-dir lets the tools use a second root, and sessions are per project", async () => {
  await using installed = await createInstalledHome();
  const { home } = installed;
  await Deno.mkdir(`${home}/lib`);
  await Deno.mkdir(`${home}/other`);
  await using server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    handler: sequence([
      toolCall("write_file", { path: `${home}/lib/a.txt`, content: "a\n" }),
      toolCall("bash", { command: `echo b > ${home}/lib/b.txt && cat ../lib/a.txt` }),
      text("Wrote both."),
      text("Again."),
    ]),
  });
  await installed.writeProvider(provider(server.url));
  const first = await installed.run(["-p", "write", "--add-dir", `${home}/lib`], { env: ENV });
  assertEquals([first.code, first.stdout], [0, "Wrote both.\n"], first.stderr);
  assertEquals(await snapshot(`${home}/lib`), { "a.txt": "a\n", "b.txt": "b\n" });
  const system = String(server.requests[0]?.body?.messages[0]?.content);
  assertStringIncludes(system, `further directories, named by absolute path: ${home}/lib.`);
  const listed = await installed.run(["--sessions"]);
  assertEquals(listed.stdout.split("\n").filter((line) => line.includes("write")).length, 1);
  const elsewhere = await installed.run(["--sessions"], { cwd: `${home}/other` });
  assertEquals(elsewhere.stdout.includes("write"), false, elsewhere.stdout);
  const resumed = await installed.run(["-c", "-p", "again"], { env: ENV });
  assertEquals([resumed.code, resumed.stdout], [0, "Again.\n"], resumed.stderr);
  assertStringIncludes(resumed.stderr, "Resumed session");
});

Deno.test("powercode takes the provider file from --provider or POWERCODE_PROVIDER, never from inside a root", async () => {
  await using installed = await createInstalledHome();
  const { home, project } = installed;
  await using server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    handler: () => text("ok"),
  });
  await Deno.writeTextFile(`${home}/mine.json`, JSON.stringify(provider(server.url)));
  const flag = await installed.run(["--provider", "../mine.json", "-p", "hi"], { env: ENV });
  assertEquals([flag.code, flag.stdout], [0, "ok\n"], flag.stderr);
  const variable = await installed.run(["-p", "hi"], {
    env: { ...ENV, POWERCODE_PROVIDER: `${home}/mine.json` },
  });
  assertEquals([variable.code, variable.stdout], [0, "ok\n"], variable.stderr);
  await Deno.copyFile(`${home}/mine.json`, `${project}/provider.json`);
  const inside = await installed.run(["--provider", "provider.json", "-p", "hi"], { env: ENV });
  assertEquals(inside.code, 2);
  assertStringIncludes(inside.stderr, "lies inside the workspace");
  const missing = await installed.run(["-p", "hi"], { env: ENV });
  assertEquals(missing.code, 2);
  assertStringIncludes(missing.stderr, `Cannot read provider file "${installed.providerFile}"`);
});
