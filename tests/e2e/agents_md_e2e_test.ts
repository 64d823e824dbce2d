/**
 * End-to-end: a bad AGENTS.md (a FIFO, a directory, binary, huge, linked out of the
 * workspace) never stops powercode from starting, and one planted by a command never
 * ends the REPL at `/clear`.
 *
 * @module
 */
import { assert, assertEquals } from "@std/assert";
import { makeFifo } from "../support/special_files.ts";
import { createTempProject, type TempProject } from "../support/project.ts";
import { systemText, text, toolCall } from "../support/scripts.ts";
import { ENV, provider, startScriptedServer } from "../support/sessions.ts";

const INSTRUCTIONS = "# Project instructions (AGENTS.md in the workspace)";

/** Makes `workspace/AGENTS.md` bad in one way each. */
const BAD_FILES: Record<string, (project: TempProject) => Promise<void>> = {
  "it is a FIFO (named pipe), not a regular file": (project) =>
    makeFifo(`${project.workspace}/AGENTS.md`),
  "it is a directory": (project) => Deno.mkdir(`${project.workspace}/AGENTS.md`),
  "binary file (it contains NUL bytes)": (project) =>
    Deno.writeFile(`${project.workspace}/AGENTS.md`, new Uint8Array([0x7f, 0x45, 0, 0])),
  "path escapes the workspace": (project) =>
    Deno.symlink(`${project.dir}/provider.json`, `${project.workspace}/AGENTS.md`),
};

Deno.test("powercode starts with a bad AGENTS.md: one warning line, the task runs", async () => {
  await using scripted = await startScriptedServer();
  for (const [reason, plant] of Object.entries(BAD_FILES)) {
    await using project = await createTempProject();
    await project.writeProvider(provider(scripted.server.url));
    await plant(project);
    const requests = scripted.play([text("Started.")]);
    const result = await project.run(["-p", "hi"], { env: ENV });
    assertEquals(
      [result.code, result.stdout, result.stderr],
      [0, "Started.\n", `⚠ AGENTS.md skipped: ${reason}\n`],
      reason,
    );
    const [first] = requests();
    assert(first && !systemText(first).includes(INSTRUCTIONS), reason);
  }
});

Deno.test("a huge AGENTS.md is cut to its first 32 KB, and the program starts", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const path = `${project.workspace}/AGENTS.md`;
  await Deno.writeTextFile(path, `Use tabs.\n${"More text. ".repeat(4000)}`);
  // 20 GB, sparse: the NUL bytes after the text are never read.
  await Deno.truncate(path, 20 * 1024 ** 3);
  const requests = scripted.play([text("Started.")]);
  const result = await project.run(["-p", "hi"], { env: ENV });
  assertEquals([result.code, result.stdout, result.stderr], [0, "Started.\n", ""]);
  const [first] = requests();
  const system = first ? systemText(first) : "";
  assert(system.includes(`${INSTRUCTIONS}\n\nUse tabs.\n`), system.slice(0, 200));
  assert(system.endsWith("[AGENTS.md was cut here: only its first 32 KB are included]"));
});

Deno.test("a FIFO AGENTS.md planted by a command does not end the REPL at /clear", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  await Deno.writeTextFile(`${project.workspace}/AGENTS.md`, "Use tabs.\n");
  const requests = scripted.play([
    toolCall("bash", { command: "rm AGENTS.md && mkfifo AGENTS.md" }),
    text("Planted."),
    text("Still here."),
  ]);
  const result = await project.run([], {
    stdin: "plant it\n/clear\nare you there?\n",
    env: ENV,
  });
  assertEquals(result.code, 0, result.stderr);
  assert(result.stdout.includes("Still here."), result.stdout);
  const warning = "⚠ AGENTS.md skipped: it is a FIFO (named pipe), not a regular file";
  assertEquals(`${result.stdout}${result.stderr}`.split(warning).length, 2, result.stdout);
  const third = requests()[2];
  assert(third && !systemText(third).includes(INSTRUCTIONS), "the FIFO was left out");
});
