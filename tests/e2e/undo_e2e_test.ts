/**
 * End-to-end: /undo, /redo, /rewind and --undo through `deno task start` (the real
 * permission set) against the strict fake server. A task edits a.txt with edit_file,
 * creates b.txt and deletes c.txt through bash (sandboxed); the workspace must come back
 * byte for byte, modes and links included, and the conversation without a trace of it.
 *
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { createTempProject, type TempProject } from "../support/project.ts";
import { text, toolCall, withoutSystem } from "../support/scripts.ts";
import { ENV, provider, type ScriptedServer, startScriptedServer } from "../support/sessions.ts";
import { type PathState, treeState } from "../support/tree_state.ts";
import { screenLines, startInTmux, typeTask, waitForPrompt } from "../support/repl_pane.ts";
import { tmuxTest } from "../support/programs.ts";

const TASK = "tidy the files";

/** The workspace before the task: a plain file, an executable, a link and a nested file. */
async function seed(project: TempProject): Promise<Record<string, PathState>> {
  const ws = project.workspace;
  await Deno.writeTextFile(`${ws}/a.txt`, "alpha\nbeta\n");
  await Deno.chmod(`${ws}/a.txt`, 0o600);
  await Deno.writeTextFile(`${ws}/c.txt`, "#!/bin/sh\necho gamma\n");
  await Deno.chmod(`${ws}/c.txt`, 0o755);
  await Deno.symlink("a.txt", `${ws}/to-a`);
  await Deno.mkdir(`${ws}/docs`);
  await Deno.writeTextFile(`${ws}/docs/readme.md`, "# docs\n");
  return await treeState(ws);
}

/** The task's replies: edit a.txt, then one bash call that creates b.txt and deletes c.txt. */
function theTask(answer = "Tidied.") {
  return [
    toolCall("edit_file", { path: "a.txt", old_string: "beta", new_string: "BETA" }),
    toolCall("bash", { command: "printf 'new\\n' > b.txt && rm c.txt && mkdir -p out/deep" }),
    text(answer),
  ];
}

async function start(): Promise<{ scripted: ScriptedServer; project: TempProject }> {
  const scripted = await startScriptedServer();
  const project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  return { scripted, project };
}

Deno.test("/undo restores the workspace byte for byte and the next request has no trace of the task; /redo brings it back", async () => {
  const { scripted, project } = await start();
  await using _server = scripted;
  await using _project = project;
  const before = await seed(project);
  scripted.play(theTask());
  const ran = await project.run([], { stdin: `${TASK}\n`, env: ENV });
  assertEquals(ran.code, 0, ran.stderr);
  const after = await treeState(project.workspace);
  assertEquals(after["b.txt"], {
    kind: "file",
    mode: after["b.txt"]?.kind === "file" ? after["b.txt"].mode : 0,
    text: "new\n",
  });
  assertEquals([after["c.txt"], after["out/deep"]?.kind], [undefined, "dir"]);

  const undone = await project.run(["-c"], { stdin: "/undo\n", env: ENV });
  assertEquals(undone.code, 0, undone.stderr);
  assertStringIncludes(undone.stdout, `Undone: ${TASK}\nrestored 2 files, removed 1\n`);
  assertEquals(await treeState(project.workspace), before);

  const redone = await project.run(["-c"], { stdin: "/redo\n", env: ENV });
  assertEquals(redone.code, 0, redone.stderr);
  assertStringIncludes(redone.stdout, `Redone: ${TASK}\nrestored 2 files, removed 1\n`);
  assertEquals(await treeState(project.workspace), after);

  const requests = scripted.play([text("Hi.")]);
  const next = await project.run(["-c"], { stdin: "/undo\nsay hi\n", env: ENV });
  assertEquals(next.code, 0, next.stderr);
  const body = requests()[0]?.body;
  assertEquals(withoutSystem(body?.messages ?? []), [{ role: "user", content: "say hi" }]);
  const fresh = scripted.play([text("Hi.")]);
  await using other = await createTempProject();
  await other.writeProvider(provider(scripted.server.url));
  assertEquals((await other.run(["-p", "say hi"], { env: ENV })).code, 0);
  assertEquals(
    JSON.stringify(body?.messages).replaceAll(project.dir, other.dir),
    JSON.stringify(fresh()[0]?.body?.messages),
    "byte-equal to the request of a session that never had the task",
  );
  assert(!JSON.stringify(body).includes("BETA"));
});

Deno.test("/undo names a file edited by hand since the task and overwrites nothing; --force goes on", async () => {
  const { scripted, project } = await start();
  await using _server = scripted;
  await using _project = project;
  const before = await seed(project);
  scripted.play(theTask());
  assertEquals((await project.run([], { stdin: `${TASK}\n`, env: ENV })).code, 0);
  await Deno.writeTextFile(`${project.workspace}/a.txt`, "my own words\n");
  const refused = await project.run(["-c"], { stdin: "/undo\n", env: ENV });
  assertEquals(refused.code, 1, "a refused command fails piped input");
  assertStringIncludes(
    refused.stderr + refused.stdout,
    "Cannot undo: changed since the task ended: a.txt; /undo --force overwrites them",
  );
  assertEquals(await Deno.readTextFile(`${project.workspace}/a.txt`), "my own words\n");
  assertEquals((await treeState(project.workspace))["b.txt"]?.kind, "file", "nothing moved");
  const forced = await project.run(["-c"], { stdin: "/undo --force\n", env: ENV });
  assertEquals(forced.code, 0, forced.stderr);
  assertEquals(await treeState(project.workspace), before);
});

Deno.test("/rewind lists the tasks and /rewind 1 restores the tree before the first of three", async () => {
  const { scripted, project } = await start();
  await using _server = scripted;
  await using _project = project;
  const before = await seed(project);
  scripted.play([
    ...theTask("One."),
    toolCall("write_file", { path: "docs/two.md", content: "two\n" }),
    text("Two."),
    toolCall("bash", { command: "rm -r docs && ln -sf b.txt to-a" }),
    text("Three."),
  ]);
  const result = await project.run([], {
    stdin: `${TASK}\nwrite the second doc\nclean up docs\n/rewind\n/rewind 1\n`,
    env: ENV,
  });
  assertEquals(result.code, 0, result.stderr);
  assertStringIncludes(result.stdout, "    1  tidy the files");
  assertStringIncludes(result.stdout, "    3  clean up docs");
  assertStringIncludes(result.stdout, "Rewound to before task 1: tidy the files\n");
  assertEquals(await treeState(project.workspace), before);
  const listed = await project.run(["-c"], { stdin: "/rewind\n", env: ENV });
  assertStringIncludes(listed.stdout, "No tasks to rewind in this session");
});

Deno.test("powercode --undo from the shell takes back the last -p task and prints the paths", async () => {
  const { scripted, project } = await start();
  await using _server = scripted;
  await using _project = project;
  const before = await seed(project);
  scripted.play(theTask());
  assertEquals((await project.run(["-p", TASK], { env: ENV })).code, 0);
  const undone = await project.run(["--undo"]);
  assertEquals([undone.code, undone.stderr], [0, ""]);
  const lines = undone.stdout.trimEnd().split("\n");
  assertEquals(lines.slice(0, -1).sort(), ["removed b.txt", "restored a.txt", "restored c.txt"]);
  assertStringIncludes(lines.at(-1) ?? "", ": restored 2 files, removed 1");
  assertEquals(await treeState(project.workspace), before);
  const again = await project.run(["--undo"]);
  assertEquals(again.code, 1);
  assertEquals(
    again.stderr,
    "powercode: Nothing to undo: no task of this session is left to take back\n",
  );
});

tmuxTest("/undo on a terminal puts the task back on the input line to edit", async () => {
  const { scripted, project } = await start();
  await using _server = scripted;
  await using _project = project;
  const before = await seed(project);
  scripted.play(theTask());
  await using pane = await startInTmux(project, { columns: 100, rows: 30 });
  await typeTask(pane, TASK);
  await pane.waitFor((screen) => screen.includes("Tidied."), "the answer");
  await waitForPrompt(pane);
  await typeTask(pane, "/undo");
  await pane.waitFor(
    (screen) => screenLines(screen).at(-1) === `> ${TASK}`,
    "the task on the input line",
  );
  assertStringIncludes(await pane.screen(), "restored 2 files, removed 1");
  assertEquals(await treeState(project.workspace), before);
  await pane.keys("C-u");
  await pane.waitFor((screen) => screenLines(screen).at(-1) === ">", "the line cleared");
});
